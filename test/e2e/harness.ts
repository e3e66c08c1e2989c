/**
 * Browser tests: the real server (buildApp on a temp data dir, the built UI from dist/public)
 * listening on a free port, driven by Chromium through playwright-core: the browser `npm test`
 * checked for (scripts/find-browser.mjs: $CHROMIUM_PATH, else chromium, chromium-browser,
 * google-chrome on PATH). Without one, the test file fails with the line that says what to install.
 *
 *   const app = await startApp();               // a set-up lab with an admin and a few staff
 *   const page = await app.newPage();           // 1366x768; app.newPage(MOBILE) for 390x844
 *   await page.goto('/login');                  // baseURL is the server
 *   await login(page, app.admin.email, app.admin.password);
 *   await screenshot(page, 'login-done');       // test-results/login-done.png (LIMS_SCREENSHOTS=1)
 *   await app.close();
 *
 * The UI must be built first (npm run build:ui; `npm test` builds).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import type { Database_ } from '../../src/core/db/connection.js';
import { openTestDatabase } from '../db.js';
import { setupLab } from '../../src/core/setup/service.js';
import { ensureDemoLab, demoCredentials } from '../../src/core/setup/demo.js';
import { createUser } from '../../src/core/users/service.js';
import { systemActor } from '../../src/core/context.js';
import { buildApp } from '../../src/server/app.js';
import { SESSION_COOKIE } from '../../src/server/plugins/auth.js';
import type { Role } from '../../src/shared/roles.js';
import { requireBrowser } from '../../scripts/find-browser.mjs';

export const ROOT = resolve(import.meta.dirname, '../..');
export const UI_DIR = join(ROOT, 'dist/public');
export const RESULTS_DIR = join(ROOT, 'test-results');

export const DESKTOP = { width: 1366, height: 768 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

/**
 * Looked up when a browser test file loads: without a browser the file fails at once with the line
 * that says what to install. (Thrown later, from a beforeAll, it would list the file's tests as skipped.)
 */
export const BROWSER_PATH = requireBrowser();

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Account {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: Role;
}

export interface E2eApp {
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  database: Database_;
  server: FastifyInstance;
  /** The worker's browser, shared with its other files: close contexts, never the browser. */
  browser: Browser;
  /** Null when started with setup: false (an empty data dir: the setup wizard). */
  organizationId: number | null;
  admin: Account;
  /** Extra staff by role (opts.roles), all with the admin's password. */
  users: Partial<Record<Role, Account>>;
  /**
   * A fresh browser context (own cookies) and page, with baseURL set to the server. With
   * `{ clock: true }` the page's timers run on Playwright's clock from the start: time flows as
   * usual, and a test that waits for a screen's poll moves it on with `page.clock.fastForward(ms)`
   * instead of sitting through the interval (the poll itself, its request and the screen's answer
   * are real).
   */
  newPage(viewport?: { width: number; height: number }, opts?: PageOptions): Promise<Page>;
  /**
   * A fresh context already signed in as `who` (the admin by default), on `path`. The session comes
   * from POST /api/auth/login, as the form's would: for walk-throughs whose subject is not signing
   * in (that is test/e2e/auth.test.ts and two-factor.test.ts), it spares each one the sign-in form.
   */
  signedInPage(
    path: string,
    who?: Account,
    viewport?: { width: number; height: number },
    opts?: PageOptions,
  ): Promise<Page>;
  close(): Promise<void>;
}

export interface PageOptions {
  /** Install Playwright's clock before the first page loads (see newPage). */
  clock?: boolean;
}

export interface StartOptions {
  /** Set up a lab first (default true). false leaves the data dir empty. */
  setup?: boolean;
  /** Run like `lims serve --demo` (seeded demo lab, credentials box on /login). Implies setup. */
  demo?: boolean;
  /** Extra users to create, one per role. */
  roles?: Role[];
  /** `lims serve --allow-private-outbound`: the lab may send to the test's fake servers on 127.0.0.1. */
  allowPrivateOutbound?: boolean;
}

const PASSWORD = 'correct-horse-9';

export async function startApp(opts: StartOptions = {}): Promise<E2eApp> {
  if (!existsSync(join(UI_DIR, 'index.html'))) {
    throw new Error(`The UI is not built (${UI_DIR}/index.html missing): run npm run build:ui first`);
  }
  // Tests write files they check there too (a downloaded label PDF), screenshots or not.
  mkdirSync(RESULTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'lims-e2e-'));
  // On the project's engine: a copy of the migrated SQLite template, or a PostgreSQL database (e2e-postgres).
  const database: Database_ = await openTestDatabase(dataDir);
  let organizationId: number | null = null;
  let admin: Account = {
    email: 'admin@lab.test',
    password: PASSWORD,
    firstName: 'Asha',
    lastName: 'Rao',
    role: 'superadmin',
  };
  const users: Partial<Record<Role, Account>> = {};

  if (opts.demo) {
    await ensureDemoLab(database.db);
    const su = demoCredentials()[0]!;
    admin = { email: su.email, password: su.password, firstName: 'Super', lastName: 'Admin', role: 'superadmin' };
  } else if (opts.setup !== false) {
    const res = await setupLab(database.db, {
      labName: 'E2E Diagnostics',
      adminName: `${admin.firstName} ${admin.lastName}`,
      adminEmail: admin.email,
      adminPassword: PASSWORD,
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      dateFormat: 'DD/MM/YYYY',
      importSampleTests: false,
      importSampleProfiles: false,
      importSamplePackages: false,
    });
    organizationId = res.organizationId;
    for (const role of opts.roles ?? []) {
      const account: Account = {
        email: `${role}@lab.test`,
        password: PASSWORD,
        firstName: 'Test',
        lastName: role,
        role,
      };
      await createUser(database.db, systemActor(organizationId), {
        first_name: account.firstName,
        last_name: account.lastName,
        email: account.email,
        role,
        password: PASSWORD,
      });
      users[role] = account;
    }
  }

  const server = await buildApp({
    database,
    demo: opts.demo ?? false,
    uiDir: UI_DIR,
    logger: false,
    version: 'e2e',
    allowPrivateOutbound: opts.allowPrivateOutbound,
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  const browser = await workerBrowser();
  const contexts: BrowserContext[] = [];

  const app: E2eApp = {
    url,
    dataDir,
    database,
    server,
    browser,
    organizationId,
    admin,
    users,
    async newPage(viewport = DESKTOP, pageOpts: PageOptions = {}) {
      const context = await browser.newContext({ viewport, baseURL: url, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
      context.setDefaultTimeout(10_000);
      // Print windows show a PDF in an iframe and call print() on it. Headless Chromium's PDF viewer
      // sometimes crashes the page there, so in browser tests a PDF loaded into an iframe is replaced
      // by a stub page: tests check which PDF the window asked for (the iframe's src), and fetch
      // and check the PDFs themselves through the API. Downloads and page.request are untouched.
      await context.route(/\/api\/.*(\.pdf|\/pdf)(\?.*)?$/, (route) => {
        const request = route.request();
        // A navigation that opens a new window has no frame yet; only iframes inside a page are stubbed.
        let inIframe = false;
        try {
          inIframe = request.resourceType() === 'document' && request.frame().parentFrame() !== null;
        } catch {
          inIframe = false;
        }
        if (inIframe) {
          return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>PDF</title><p>PDF</p>' });
        }
        return route.fallback();
      });
      contexts.push(context);
      if (pageOpts.clock) await context.clock.install();
      return context.newPage();
    },
    async signedInPage(path, who = admin, viewport = DESKTOP, pageOpts: PageOptions = {}) {
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: who.email, password: who.password }),
      });
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      if (res.status !== 200 || !cookie) throw new Error(`sign-in as ${who.email} failed: ${res.status}`);
      const page = await app.newPage(viewport, pageOpts);
      const value = cookie.slice(SESSION_COOKIE.length + 1).split(';')[0]!;
      await page.context().addCookies([{ name: SESSION_COOKIE, value, url, httpOnly: true, sameSite: 'Lax' }]);
      await page.goto(path);
      return page;
    },
    async close() {
      // The browser stays for the worker's next file (workerBrowser); what this file opened in it goes.
      for (const c of contexts) await c.close().catch(() => undefined);
      await server.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

/**
 * One Chromium per test worker, shared by the browser test files the worker runs one after another
 * (`isolate: false` keeps this module loaded between them). A file gets nothing of another's: its own
 * server and database on a new port, and its own browser contexts (cookies, storage, cache), closed
 * with the file. Launching a browser for each file cost about 0.6 s of a busy core. Playwright ends
 * the browser when the worker process exits; one that crashed or disconnected is launched again.
 */
let launched: Promise<Browser> | null = null;

async function workerBrowser(): Promise<Browser> {
  const running = await launched?.catch(() => null);
  if (running?.isConnected()) return running;
  launched = chromium.launch({ executablePath: BROWSER_PATH, args: CHROMIUM_ARGS });
  return launched;
}

/** Signs in through the form on the current page (the /login page or the in-place form). */
/** `lab`: the lab's address, typed into the Lab field a server of several labs asks for at its IP address. */
export async function login(page: Page, email: string, password: string, lab?: string): Promise<void> {
  if (lab !== undefined) await page.getByLabel('Lab', { exact: true }).fill(lab);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Screenshots for a person to look at: saved only when LIMS_SCREENSHOTS=1 (a developer checking how
 * screens look), since `npm test` has nobody looking and each one costs about half a second of a
 * busy core. A failed test's screenshot (`always`) is saved every time.
 */
export const SAVE_SCREENSHOTS = process.env.LIMS_SCREENSHOTS === '1';

/** Saves test-results/<name>.png (gitignored) and returns its path, or null when not saved (see above). */
export async function screenshot(
  page: Page,
  name: string,
  opts: { always?: boolean; fullPage?: boolean } = {},
): Promise<string | null> {
  if (!SAVE_SCREENSHOTS && !opts.always) return null;
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: opts.fullPage ?? false });
  return path;
}

/**
 * Where an element is on screen, once it is there and stays there: a top bar whose lazily loaded
 * parts (account menu, drawer) arrive re-renders, and a box read at that moment is null.
 */
export async function boxOf(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  for (let attempt = 0; ; attempt++) {
    await locator.waitFor({ state: 'visible' });
    const box = await locator.boundingBox();
    if (box) return box;
    if (attempt >= 20) throw new Error(`no box for ${String(locator)} after ${attempt} tries`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * A failed test leaves a screenshot of the page it was working on (test-results/FAILED-<test>.png).
 * Call once at the top of a test file; pass each page a test opens to the function it returns.
 */
export function screenshotFailures(): (page: Page) => Page {
  let current: Page | null = null;
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && current && !current.isClosed()) {
      const name = `FAILED-${ctx.task.name.replace(/\W+/g, '-').slice(0, 60)}`;
      await screenshot(current, name, { always: true }).catch(() => undefined);
    }
    current = null;
  });
  return (page) => (current = page);
}
