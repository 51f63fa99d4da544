import { main } from '../src/cli.js';
const out: string[] = [];
await main(['report', '--db', process.argv[2] ?? '', ...process.argv.slice(3)], { stdout: (t) => out.push(t), stderr: (t) => out.push(t), env: {}, load: () => Promise.reject(new Error('x')) });
console.log(out.join(''));
