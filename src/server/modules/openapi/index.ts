// The OpenAPI module's public surface: the plugin the app registers.
export { isApiDocsRoute, registerOpenApi } from './openapi.plugin';
