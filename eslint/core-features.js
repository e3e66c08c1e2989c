import fs from 'node:fs';
import path from 'node:path';

/**
 * Core features do not reach into each other (docs/README.md, "Adding a feature", step 3): the
 * folders of src/core import each other in one direction only (no cycle between two features, of
 * any length), and a feature imports another only through its entry files, never its internals. A
 * reaction to another feature's change goes through the event list (src/core/events.ts) instead of
 * an import that would close a cycle. The platform folders below are not features: they serve all
 * of them and are left out of the graph.
 *
 * The rule reads the import lines of every file under src/core once per run (a regular expression,
 * as a cycle needs the whole graph and ESLint hands a rule one file), and reports on the import of
 * the file being linted that closes a cycle or reaches into another feature.
 */
const CORE = path.join(import.meta.dirname, '..', 'src', 'core');
const PLATFORM = new Set(['db', 'audit', 'pdf', 'net', 'export', 'heavy']);
/** What another feature may import: its service, its repositories, its table types. */
const ENTRY = /^(service|repository|[a-z-]+-repository|tables)\.(js|ts)$/;
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function featureOf(abs) {
  const rel = path.relative(CORE, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 && !PLATFORM.has(parts[0]) ? parts[0] : null;
}

function sourceFiles(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** feature -> feature -> the first file seen importing it (for the message). */
export function featureGraph(files = sourceFiles(CORE), read = (f) => fs.readFileSync(f, 'utf8')) {
  const graph = new Map();
  for (const file of files) {
    const from = featureOf(file);
    if (!from) continue;
    for (const m of read(file).matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const to = featureOf(path.resolve(path.dirname(file), spec));
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, path.relative(CORE, file));
    }
  }
  return graph;
}

/** A path of features from `start` back to `goal`, or null; `skip` are the known edges "a -> b". */
export function pathBack(graph, start, goal, skip) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length) {
    const trail = queue.shift();
    const at = trail[trail.length - 1];
    for (const next of graph.get(at)?.keys() ?? []) {
      if (skip.has(`${at} -> ${next}`)) continue;
      if (next === goal) return [...trail, next];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...trail, next]);
      }
    }
  }
  return null;
}

let cached = null;
const graphOnce = () => (cached ??= featureGraph());

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'core features import each other without cycles, through their entry files' },
    messages: {
      cycle:
        "Feature '{{from}}' importing '{{to}}' closes a cycle: {{trail}}. Announce an event (src/core/events.ts) that '{{to}}' listens to, or move what both need down; see docs/README.md, 'Adding a feature'.",
      deep: "'{{spec}}' reaches into feature '{{to}}': import its service.ts (or repository.ts, *-repository.ts, tables.ts) instead, exporting from there what other features need.",
    },
    schema: [
      {
        type: 'object',
        properties: {
          knownEdges: { type: 'array', items: { type: 'string' } },
          knownInternals: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = context.filename;
    const from = featureOf(file);
    if (!from || /\.test\.tsx?$/.test(file)) return {};
    const options = context.options[0] ?? {};
    const knownEdges = new Set(options.knownEdges ?? []);
    const knownInternals = new Set(options.knownInternals ?? []);
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const abs = path.resolve(path.dirname(file), spec);
      const to = featureOf(abs);
      if (!to || to === from) return;
      const target = path.relative(CORE, abs).split(path.sep).join('/');
      if (!ENTRY.test(path.basename(abs)) && !knownInternals.has(target.replace(/\.js$/, '.ts')))
        context.report({ node, messageId: 'deep', data: { spec, to } });
      if (knownEdges.has(`${from} -> ${to}`)) return;
      const back = pathBack(graphOnce(), to, from, knownEdges);
      if (back) context.report({ node, messageId: 'cycle', data: { from, to, trail: [from, ...back].join(' -> ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'no-feature-cycles': rule } };
