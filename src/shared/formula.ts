/**
 * Calculated tests: a formula over other tests of the same sample, by code, with + - * / and
 * parentheses, and an optional condition after "if" that says when the formula is valid
 * ("CHOL - HDL - TG/5 if TG <= 400": Friedewald's LDL is not valid above 400 mg/dL of triglycerides).
 * Parsed here, never eval'd: a formula is data a lab types.
 */

type Node =
  | { k: 'num'; v: number }
  | { k: 'ref'; code: string }
  | { k: 'neg'; a: Node }
  | { k: 'bin'; op: '+' | '-' | '*' | '/'; a: Node; b: Node };

type Comparison = { op: '<' | '<=' | '>' | '>=' | '='; a: Node; b: Node };

export interface Formula {
  text: string;
  expr: Node;
  conditions: Comparison[];
  /** The test codes it reads, upper-case, in order of first use. */
  codes: string[];
}

export type FormulaResult = { ok: true; value: number } | { ok: false; reason: string };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z][A-Za-z0-9._]*)|(<=|>=|[-+*/()<>=]))/y;

function tokenize(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`Formula: cannot read "${text.slice(pos).trim().slice(0, 10)}"`);
    out.push(m[1] ?? m[2] ?? m[3]!);
    pos = TOKEN.lastIndex;
  }
  return out;
}

class Parser {
  private i = 0;
  readonly codes: string[] = [];
  constructor(private readonly t: string[]) {}
  peek() {
    return this.t[this.i];
  }
  next() {
    return this.t[this.i++];
  }
  done() {
    return this.i >= this.t.length;
  }
  expr(): Node {
    let a = this.term();
    while (this.peek() === '+' || this.peek() === '-') {
      const op = this.next() as '+' | '-';
      a = { k: 'bin', op, a, b: this.term() };
    }
    return a;
  }
  term(): Node {
    let a = this.unary();
    while (this.peek() === '*' || this.peek() === '/') {
      const op = this.next() as '*' | '/';
      a = { k: 'bin', op, a, b: this.unary() };
    }
    return a;
  }
  unary(): Node {
    if (this.peek() === '-') {
      this.next();
      return { k: 'neg', a: this.unary() };
    }
    return this.atom();
  }
  atom(): Node {
    const t = this.next();
    if (t === undefined) throw new Error('Formula: ends too early');
    if (t === '(') {
      const e = this.expr();
      if (this.next() !== ')') throw new Error('Formula: a "(" is not closed');
      return e;
    }
    if (/^\d/.test(t)) return { k: 'num', v: Number(t) };
    if (/^[A-Za-z]/.test(t)) {
      if (t.toLowerCase() === 'if' || t.toLowerCase() === 'and') throw new Error(`Formula: "${t}" is misplaced`);
      const code = t.toUpperCase();
      if (!this.codes.includes(code)) this.codes.push(code);
      return { k: 'ref', code };
    }
    throw new Error(`Formula: "${t}" is misplaced`);
  }
  comparison(): Comparison {
    const a = this.expr();
    const op = this.next();
    if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=' && op !== '=')
      throw new Error('Formula: a condition needs <, <=, >, >= or =');
    return { op, a, b: this.expr() };
  }
}

/** Parses a formula; throws an Error whose message says what is wrong (shown to the lab as is). */
export function parseFormula(text: string): Formula {
  const tokens = tokenize(text);
  const at = tokens.findIndex((t) => t.toLowerCase() === 'if');
  const p = new Parser(at === -1 ? tokens : tokens.slice(0, at));
  const expr = p.expr();
  if (!p.done()) throw new Error(`Formula: "${p.peek()}" is misplaced`);
  const conditions: Comparison[] = [];
  if (at !== -1) {
    const rest = tokens.slice(at + 1);
    let start = 0;
    for (let i = 0; i <= rest.length; i++) {
      if (i === rest.length || rest[i]!.toLowerCase() === 'and') {
        const c = new Parser(rest.slice(start, i));
        conditions.push(c.comparison());
        if (!c.done()) throw new Error(`Formula: "${c.peek()}" is misplaced`);
        for (const code of c.codes) if (!p.codes.includes(code)) p.codes.push(code);
        start = i + 1;
      }
    }
  }
  if (!p.codes.length) throw new Error('Formula: it must use at least one test code');
  return { text, expr, conditions, codes: p.codes };
}

function value(n: Node, vars: ReadonlyMap<string, number>): number {
  switch (n.k) {
    case 'num':
      return n.v;
    case 'ref':
      return vars.get(n.code)!;
    case 'neg':
      return -value(n.a, vars);
    case 'bin': {
      const a = value(n.a, vars);
      const b = value(n.b, vars);
      return n.op === '+' ? a + b : n.op === '-' ? a - b : n.op === '*' ? a * b : a / b;
    }
  }
}

const TEXT: Record<Comparison['op'], string> = { '<': '<', '<=': '≤', '>': '>', '>=': '≥', '=': '=' };

function describe(n: Node): string {
  if (n.k === 'num') return String(n.v);
  if (n.k === 'ref') return n.code;
  if (n.k === 'neg') return `-${describe(n.a)}`;
  return `${describe(n.a)} ${n.op} ${describe(n.b)}`;
}

/** The formula's value from the inputs (by code), or why it cannot be calculated. */
export function evaluateFormula(f: Formula, vars: ReadonlyMap<string, number>): FormulaResult {
  const missing = f.codes.filter((c) => !vars.has(c));
  if (missing.length) return { ok: false, reason: `waiting for ${missing.join(', ')}` };
  for (const c of f.conditions) {
    const a = value(c.a, vars);
    const b = value(c.b, vars);
    const holds =
      c.op === '<' ? a < b : c.op === '<=' ? a <= b : c.op === '>' ? a > b : c.op === '>=' ? a >= b : a === b;
    if (!holds)
      return {
        ok: false,
        reason: `not valid when ${describe(c.a)} is ${a} (the formula needs ${describe(c.a)} ${TEXT[c.op]} ${describe(c.b)}); measure it directly`,
      };
  }
  const v = value(f.expr, vars);
  if (!Number.isFinite(v)) return { ok: false, reason: 'cannot be calculated (division by zero)' };
  return { ok: true, value: v };
}
