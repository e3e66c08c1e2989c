/**
 * SQLite and PostgreSQL differ only inside src/core/db (docs/decisions.md, "Two engines, one
 * codebase"): each difference is a function there, named for what it does, and the features call
 * it. Outside src/core/db this rule refuses the engine test itself (`engineOf`) and SQLite's index
 * hints (`INDEXED BY`, given through tableUsingIndex).
 */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'engine differences live in src/core/db' },
    messages: {
      engineOf:
        "'engineOf' outside src/core/db: put the difference in src/core/db as a function named for what it does (see docs/decisions.md, 'Two engines, one codebase').",
      hint: "An index hint ('INDEXED BY') outside src/core/db: read the table through tableUsingIndex (src/core/db/dialect.ts).",
    },
    schema: [],
  },
  create(context) {
    const hint = (node, text) => {
      if (/\bINDEXED\s+BY\b/i.test(text)) context.report({ node, messageId: 'hint' });
    };
    return {
      ImportSpecifier: (node) => {
        if (node.imported.name === 'engineOf') context.report({ node, messageId: 'engineOf' });
      },
      TemplateElement: (node) => hint(node, node.value.raw),
      Literal: (node) => typeof node.value === 'string' && hint(node, node.value),
    };
  },
};

export default { rules: { 'in-db-only': rule } };
