// Prints the slowest tests of a Vitest JSON report (`--reporter=json --outputFile.json=FILE`), slowest first, so that
// CI's output names what to speed up when the suite grows. Usage: node scripts/slowest-tests.mjs FILE [COUNT]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, count = '10'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/slowest-tests.mjs REPORT.json [COUNT]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const tests = report.testResults.flatMap((suite) =>
  suite.assertionResults.map((t) => ({ file: relative(process.cwd(), suite.name), name: t.fullName, ms: t.duration ?? 0 })),
);
tests.sort((a, b) => b.ms - a.ms);
console.log(`slowest ${Math.min(Number(count), tests.length)} of ${tests.length} tests:`);
for (const t of tests.slice(0, Number(count))) console.log(`${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.file}  ${t.name}`);
