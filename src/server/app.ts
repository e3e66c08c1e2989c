import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './contract.js';
import { AuthService } from '../core/auth/service.js';
import { authPlugin } from './plugins/auth.js';
import { cookiesPlugin } from './plugins/cookies.js';
import { errorsPlugin } from './plugins/errors.js';
import { securityHeaders } from './plugins/security-headers.js';
import { staticUi } from './plugins/static-ui.js';
import { authRoutes } from './routes/auth.js';
import { setupRoutes } from './routes/setup.js';
import { userRoutes } from './routes/users.js';
import { patientRoutes } from './routes/patients.js';
import { systemRoutes } from './routes/system.js';
import { catalogueRoutes } from './routes/catalogue.js';
import { billRoutes } from './routes/bills.js';
import { sampleRoutes } from './routes/samples.js';
import { qcRoutes } from './routes/qc.js';
import { historyRoutes } from './routes/history.js';
import { portalRoutes } from './routes/portal.js';
import { resultRoutes } from './routes/results.js';
import { createServerLog, fastifyLogging } from './logging.js';
import type { AppOptions, RegisteredRoute, RouteAccess } from './types.js';
import type { RouteContract } from '../shared/api/contract.js';

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const serverLog = createServerLog(opts.logger);
  const app = Fastify({
    ...fastifyLogging(opts, serverLog),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: false,
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
  app.decorate('database', opts.database);
  app.decorate('options_', opts);
  app.decorate('auth', new AuthService(opts.database.db));

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

  await app.register(authRoutes);
  await app.register(setupRoutes);
  await app.register(userRoutes);
  await app.register(patientRoutes);
  await app.register(systemRoutes);
  await app.register(catalogueRoutes);
  await app.register(billRoutes);
  await app.register(sampleRoutes);
  await app.register(qcRoutes);
  await app.register(historyRoutes);
  await app.register(portalRoutes);
  await app.register(resultRoutes);

  if (opts.uiDir) await staticUi(app, opts.uiDir);

  return app;
}
