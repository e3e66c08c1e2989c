import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import autoload from '@fastify/autoload';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './contract.js';
import { AuthService } from '../core/sign-in/service.js';
import { SecretBox } from '../core/two-factor/secret-box.js';
import { debugLogPlugin } from './plugins/debug-log.js';
import { authPlugin } from './plugins/auth.js';
import { cookiesPlugin } from './plugins/cookies.js';
import { errorsPlugin } from './plugins/errors.js';
import { requestGuards } from './plugins/request-guards.js';
import { securityHeaders } from './plugins/security-headers.js';
import { staticUi } from './plugins/static-ui.js';
import { createServerLog, fastifyLogging } from './logging.js';
import type { AppOptions, RegisteredRoute, RouteAccess } from './types.js';
import type { Database_ } from '../core/db/connection.js';
import type { RouteContract } from '../shared/api/contract.js';

const ROUTES_DIR = fileURLToPath(new URL('./routes', import.meta.url));

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const serverLog = createServerLog(opts.logger);
  const app = Fastify({
    ...fastifyLogging(opts, serverLog),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: opts.trustProxy ?? false,
    // Loading the route files is the slow part of a start: on a busy clinic PC (an antivirus scan,
    // a backup) or a test machine under load it passed Fastify's 10 s default and the server
    // refused to start ("Plugin did not start in time: 'autoload'"). A plugin that truly hangs still fails.
    pluginTimeout: 120_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  const routeList: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m === 'HEAD') continue;
      routeList.push({
        method: m,
        url: route.url,
        access: (route.config as { access?: RouteAccess } | undefined)?.access,
        contract: (route.config as { contract?: RouteContract } | undefined)?.contract,
      });
    }
  });

  app.decorate('routeList', routeList);
  app.decorate('serverLog', serverLog);
  app.decorate<Database_>('database', opts.database);
  app.decorate('options_', opts);
  // Two-factor secrets are sealed with the data dir's key file; an app without a data dir (tests) keeps a key in memory.
  app.decorate('auth', new AuthService(opts.database.db, opts.dataDir ? SecretBox.inDataDir(opts.dataDir) : undefined));

  await app.register(requestGuards, {
    allowedHosts: opts.allowedHosts,
    publicRequestsPerMinute: opts.publicRequestsPerMinute,
  });
  await app.register(cookiesPlugin);
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: null,
      },
    },
    // The app is served over plain HTTP on the clinic LAN; HSTS would lock browsers out of it.
    strictTransportSecurity: false,
  });
  await app.register(errorsPlugin);
  await app.register(authPlugin);
  await app.register(debugLogPlugin);

  // Every file in routes/ registers its feature's routes from their contracts (a new feature adds
  // a file there and edits nothing here).
  await app.register(autoload, { dir: ROUTES_DIR, forceESM: true, ignorePattern: /\.(d\.ts|map|test\.ts)$/ });

  if (opts.uiDir) await staticUi(app, opts.uiDir);

  return app;
}
