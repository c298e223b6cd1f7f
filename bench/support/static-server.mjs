// A baseline of bench/mock.mjs and bench/server.mjs: a bare node:http server on 127.0.0.1:$PORT
// answering every request with the JSON body in $BODY.
import { createServer } from 'node:http';

const body = process.env.BODY ?? '{}';
createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
