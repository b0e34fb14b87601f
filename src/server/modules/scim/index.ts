// The SCIM module's public surface (issue 41): its registration (the /scim/v2 API and the admin's SCIM tokens).
import type { FastifyInstance } from 'fastify';
import { registerScimApi } from './scim.routes';
import { registerScimTokens } from './scim-tokens.routes';
import { ScimTokenService } from './scim-tokens.service';

export { isScimToken } from './scim-tokens.service';

export function registerScim(app: FastifyInstance): void {
  const tokens = new ScimTokenService(app.deps.database.db, app.deps.changes);
  registerScimTokens(app, tokens);
  registerScimApi(app, tokens);
}
