import path from 'node:path';

/**
 * UI import direction (docs/README.md "The UI"): a feature (src/ui/features/<name>/) imports only
 * itself, src/ui/lib, src/ui/components and src/shared; never the app shell (src/ui/app) and never
 * another feature. What several features need moves down to lib/ or components/.
 */
const UI = path.join(import.meta.dirname, '..', 'src', 'ui');

function target(spec, file) {
  if (spec.startsWith('@/')) return path.join(UI, spec.slice(2));
  if (spec.startsWith('.')) return path.resolve(path.dirname(file), spec);
  return null;
}

function featureOf(abs) {
  const rel = path.relative(path.join(UI, 'features'), abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0];
}

function isApp(abs) {
  const rel = path.relative(path.join(UI, 'app'), abs);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'UI features import neither the app shell nor each other' },
    messages: {
      app: "A feature must not import the app shell ('{{spec}}'): screen titles come from useScreen() (src/ui/lib/screens.ts); see docs/README.md, 'The UI'.",
      feature:
        "Feature '{{from}}' must not import feature '{{to}}' ('{{spec}}'): move what both need to src/ui/lib or src/ui/components; see docs/README.md, 'The UI'.",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = featureOf(file);
    if (!from) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      const abs = target(spec, file);
      if (!abs) return;
      if (isApp(abs)) context.report({ node, messageId: 'app', data: { spec } });
      const to = featureOf(abs);
      if (to && to !== from) context.report({ node, messageId: 'feature', data: { spec, from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'feature-boundaries': rule } };
