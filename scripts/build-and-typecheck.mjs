// What `npm test` runs before the tests: the build of lib/ (tsconfig.build.json) and the type check of
// everything, tests included (tsconfig.json), side by side. They share nothing, and each compiler keeps
// one core busy. Exits with the first failure's code, after both have printed what they found.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function compile(args) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsc, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => done({ code: 2, output: `${error.message}\n` }));
    child.on('close', (code) => done({ code: code ?? 2, output }));
  });
}

const results = await Promise.all([
  compile(['-p', 'tsconfig.build.json']),
  compile(['--noEmit', '-p', 'tsconfig.json']),
]);
for (const { output } of results) {
  process.stdout.write(output);
}
process.exitCode = results.find((result) => result.code !== 0)?.code ?? 0;
