/**
 * A shipped migration never changes what it does, so runtime code must not import one: anything
 * runtime needs from a migration (a SQL text, a constant) lives in src/core, and a migration that
 * needs a runtime helper keeps its own frozen copy or imports it from there. Only the migration
 * list (src/core/db/migrations/index.ts, which imports each migration) and the runner that applies
 * them (src/core/db/migrate.ts, src/core/db/postgres.ts, through the list) may import from
 * src/core/db/migrations/.
 */
const ALLOWED = [/src\/core\/db\/migrations\//, /src\/core\/db\/migrate\.ts$/, /src\/core\/db\/postgres\.ts$/];

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'runtime code does not import migration modules' },
    messages: {
      migration:
        "'{{source}}' is a migration module: a shipped migration must not change behaviour, so runtime code may not import it. Move what runtime needs into src/core (docs/decisions.md, 'Migrations stay frozen').",
      list: "Only the migration runner imports the migration list ('{{source}}').",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename.replace(/\\/g, '/');
    if (ALLOWED.some((re) => re.test(file))) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !/(^|\/)migrations\//.test(source)) return;
      const resolved = source.startsWith('.') ? new URL(source, `file://${file}`).pathname : source;
      if (!/src\/core\/db\/migrations\//.test(resolved) && !/(^|\/)db\/migrations\//.test(source)) return;
      context.report({ node, messageId: /\/index(\.js)?$/.test(source) ? 'list' : 'migration', data: { source } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'no-runtime-import': rule } };
