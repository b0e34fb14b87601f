import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';

/** A failure of the provider round trip, carried back to /login as error + error_description. */
export class OidcFlowError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

const metadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
});
export type ProviderMetadata = z.infer<typeof metadataSchema>;

const tokenResponseSchema = z.object({
  id_token: z.string().min(1),
  access_token: z.string().optional(),
});

const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const HTTP_TIMEOUT_MS = 10_000;

const unreachable = () =>
  new OidcFlowError('temporarily_unavailable', 'The sign-in provider could not be reached. Please try again later.');

/**
 * One OpenID Connect provider: discovery (cached for an hour), the authorization URL, the code
 * exchange (client secret + PKCE verifier) and ID-token verification against the provider's JWKS.
 */
export class OidcProvider {
  private metadata: { value: ProviderMetadata; fetchedAt: number } | null = null;
  private jwks: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | null = null;

  constructor(
    readonly issuer: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  async discover(): Promise<ProviderMetadata> {
    if (this.metadata && Date.now() - this.metadata.fetchedAt < DISCOVERY_TTL_MS) return this.metadata.value;
    let body: unknown;
    try {
      const res = await fetch(`${this.issuer}/.well-known/openid-configuration`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      if (!res.ok) throw unreachable();
      body = await res.json();
    } catch {
      throw unreachable();
    }
    const parsed = metadataSchema.safeParse(body);
    // The discovered issuer must be the configured one (OpenID Connect Discovery §4.3).
    if (!parsed.success || parsed.data.issuer.replace(/\/$/, '') !== this.issuer) {
      throw new OidcFlowError('server_error', 'The sign-in provider is misconfigured.');
    }
    this.metadata = { value: parsed.data, fetchedAt: Date.now() };
    return parsed.data;
  }

  async authorizationUrl(params: { redirectUri: string; state: string; nonce: string; codeChallenge: string }): Promise<string> {
    const { authorization_endpoint } = await this.discover();
    const url = new URL(authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('scope', 'openid email profile');
    url.searchParams.set('state', params.state);
    url.searchParams.set('nonce', params.nonce);
    url.searchParams.set('code_challenge', params.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    // No access_type=offline or prompt=consent: the provider's tokens are used once, at sign-in, and
    // never kept, so a refresh token (and the consent screen it forces every time) buys nothing.
    return url.toString();
  }

  /** Exchanges the authorization code; returns the ID token and (if any) the access token. */
  async exchangeCode(code: string, verifier: string, redirectUri: string) {
    const { token_endpoint } = await this.discover();
    let res: Response;
    try {
      res = await fetch(token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: this.clientId,
          client_secret: this.clientSecret,
          code_verifier: verifier,
        }),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
    } catch {
      throw unreachable();
    }
    const body = (await res.json().catch(() => ({}))) as { error?: unknown };
    if (!res.ok) {
      const error = typeof body.error === 'string' && /^[a-z_]{1,64}$/.test(body.error) ? body.error : 'invalid_grant';
      throw new OidcFlowError(error, 'The sign-in provider did not accept the sign-in. Please try again.');
    }
    const parsed = tokenResponseSchema.safeParse(body);
    if (!parsed.success) throw new OidcFlowError('server_error', 'The sign-in provider sent no identity token.');
    return { idToken: parsed.data.id_token, accessToken: parsed.data.access_token };
  }

  /** Verifies signature, issuer, audience, expiry and nonce of an ID token. */
  async verifyIdToken(idToken: string, nonce: string): Promise<JWTPayload> {
    const meta = await this.discover();
    if (this.jwks?.uri !== meta.jwks_uri) this.jwks = { uri: meta.jwks_uri, set: createRemoteJWKSet(new URL(meta.jwks_uri)) };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.jwks.set, {
        issuer: meta.issuer,
        audience: this.clientId,
        clockTolerance: 60,
      }));
    } catch {
      throw new OidcFlowError('invalid_token', 'The identity token could not be verified.');
    }
    if (payload.nonce !== nonce) throw new OidcFlowError('invalid_token', 'The identity token could not be verified.');
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== this.clientId) {
      throw new OidcFlowError('invalid_token', 'The identity token could not be verified.');
    }
    if (typeof payload.sub !== 'string' || !payload.sub) {
      throw new OidcFlowError('invalid_token', 'The identity token could not be verified.');
    }
    return payload;
  }

  /** Claims from the userinfo endpoint (used when the ID token carries no email). */
  async userinfo(accessToken: string): Promise<Record<string, unknown>> {
    const { userinfo_endpoint } = await this.discover();
    if (!userinfo_endpoint) return {};
    try {
      const res = await fetch(userinfo_endpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      if (!res.ok) return {};
      const body = await res.json();
      return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
}
