// The baseline of bench/server.mjs: Fastify with one route and nothing else (no hooks, no validation),
// on 127.0.0.1:$PORT, answering GET $ROUTE with the JSON body in $BODY, as the reference server does.
import Fastify from 'fastify';

const body = process.env.BODY ?? '{}';
const app = Fastify({ logger: false });
app.get(process.env.ROUTE ?? '/*', (_request, reply) => reply.type('application/json').send(body));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
