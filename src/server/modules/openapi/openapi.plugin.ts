import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { THEME_CSS, THEME_JS } from './openapi.theme';
import { SECURITY, transformDocument, transformRoute } from './openapi.transform';

/** The reference page of the OpenAPI document, rendered by Swagger UI from files this server serves (no CDN). */
export const API_DOCS_PREFIX = '/api/docs';

/**
 * A route of the reference page: registered by the Swagger UI plugin under API_DOCS_PREFIX (its page, its scripts and
 * styles, the document again as JSON and YAML). Found by the plugin prefix it was registered under, so a module's own
 * route with a /api/docs URL is not one. They are public, like /api/openapi.json.
 */
export const isApiDocsRoute = (route: Pick<RouteOptions, 'url'> & { prefix?: string }) =>
  route.prefix !== undefined &&
  (route.prefix === API_DOCS_PREFIX || route.prefix.startsWith(`${API_DOCS_PREFIX}/`)) &&
  route.url.startsWith(API_DOCS_PREFIX);

/** The OpenAPI document (`app.swagger()`, served at /api/openapi.json by app.ts) and its reference page at /api/docs. */
export async function registerOpenApi(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Crewboard API',
        version: '1.0.0',
        description:
          'The JSON API of Crewboard: teams, projects, tasks and everything around them. Errors answer ' +
          '`{"error": {"code", "message", "reason"?, "fields"?}}`; see the `bearerAuth` scheme for the two kinds of token.',
        // The project states no licence of its own yet: this names that, with where to ask (see the report).
        license: { name: 'Proprietary: all rights reserved', url: options.publicUrl.replace(/\/+$/, '') },
      },
      components: { securitySchemes: SECURITY.securitySchemes },
      security: SECURITY.security(),
    },
    transform: transformRoute,
    transformObject: transformDocument(options),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    theme: {
      title: 'Crewboard API reference',
      css: [{ filename: 'crewboard.css', content: THEME_CSS }],
      js: [{ filename: 'crewboard.js', content: THEME_JS }],
    },
    uiConfig: {
      // No call to the public validator badge service (an outside request, and refused by our CSP anyway).
      validatorUrl: null,
      // The page alone, without Swagger UI's top bar (an "Explore" box for any URL, and its own logo).
      layout: 'BaseLayout',
      // Its default code theme (agate) draws numbers below AA contrast.
      syntaxHighlight: { theme: 'monokai' },
      docExpansion: 'list',
      // Deep links put a link inside each operation's toggle button (nested controls, tiny targets for axe).
      deepLinking: false,
      displayOperationId: true,
      defaultModelsExpandDepth: 0,
    },
  });
}
