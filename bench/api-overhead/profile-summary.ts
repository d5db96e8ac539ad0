// Summarises a V8 .cpuprofile (node --cpu-prof): self time by package (or our source folder) and
// the heaviest functions, so a profile of the server under load reads as "where the CPU went".
//   node bench/api-overhead/profile-summary.ts /tmp/prof/CPU.*.cpuprofile [--top 30]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const top = Number(values.top);

/** node_modules/<package> (scoped too), our own source folder, node: internals, or the V8 pseudo-frames. */
function owner(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'anonymous'})`;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1] as string;
  const ours = /\/(apps\/server\/src\/[^/]+|packages\/[^/]+)\//.exec(url);
  if (ours) return ours[1] as string;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '');
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, index) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, micros] of selfTime) {
    const { callFrame } = byId.get(id) as ProfileNode;
    const group = owner(callFrame.url, callFrame.functionName);
    byOwner.set(group, (byOwner.get(group) ?? 0) + micros);
    const name = `${callFrame.functionName || '(anonymous)'} ${group}:${callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const idle = selfTime.get([...byId.values()].find((n) => n.callFrame.functionName === '(idle)')?.id ?? -1) ?? 0;
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled, ${(idle / 1000).toFixed(0)} ms idle`);
  const print = (title: string, entries: Map<string, number>) => {
    console.log(`\n${title} (% of busy time)`);
    for (const [name, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      if (name.includes('(idle)')) continue;
      console.log(`${((100 * micros) / (total - idle)).toFixed(1).padStart(5)} %  ${name}`);
    }
  };
  print('by package / folder', byOwner);
  print('by function', byFunction);
}
