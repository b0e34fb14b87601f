import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { type ChangeActor, anonymousActor } from '../../../domain/changes';
import { LIMITS } from '../../../domain/constants';
import type { SamlAcsInput, SsoSettingsDto, UpdateSsoSettingsInput } from '../../../domain/schemas/sso';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { AuthService } from '../auth';
import { codeSealer, createIdentity, getUserByIdentity, randomToken, Sealer, sealSignInCode, sha256 } from '../oidc';
import * as usersRepo from '../users';
import { type SpKeyPair, loadSpKeyPair } from './saml.keys';
import { type IdpDescription, MetadataError, normalizeCert, parseIdpMetadata } from './saml.metadata';
import * as repo from './saml.repo';

/** How long a started sign-in may take at the IdP (the AuthnRequest's ID is kept that long). */
export const REQUEST_TTL_MS = 10 * 60 * 1000;
/** Clock difference tolerated between the IdP and us on NotBefore / NotOnOrAfter. */
const CLOCK_SKEW_MS = 60 * 1000;
/** Metadata fetched from a URL is kept this long. */
const METADATA_CACHE_MS = 10 * 60 * 1000;
/** An assertion without NotOnOrAfter is remembered this long (it cannot be accepted again within it). */
const ASSERTION_FALLBACK_TTL_MS = 24 * 3600 * 1000;
const ERROR_TTL_SECONDS = 5 * 60;

/** A refusal shown on the login page ('Authentication failed: {description}'), as Google sign-in's. */
export class SamlFlowError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    /** What is logged and audited (never shown): node-saml's own message, say. */
    readonly detail: string = description,
  ) {
    super(description);
  }
}

const refused = (detail: string) => new SamlFlowError('access_denied', 'The identity provider’s answer was refused.', detail);

interface Effective {
  source: SsoSettingsDto['source'];
  enabled: boolean;
  idpInitiated: boolean;
  idp: IdpDescription | null;
  problem: string | null;
  row: repo.SsoSettingsRow | undefined;
}

/**
 * node-saml's InResponseTo cache in the database (saml_request_ids), so that any instance can take the IdP's answer to
 * a request another sent. The row's value is the digest of the browser's binding (OidcService.begin): node-saml only
 * needs an entry's creation time, which is the row's own.
 */
class RequestIdCache implements CacheProvider {
  /** The binding digest of the request an answer was validated against. */
  binding: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly bindingDigest: string = '',
  ) {}

  async saveAsync(key: string, _value: string) {
    await repo.pruneRequestIds(this.db, new Date(Date.now() - REQUEST_TTL_MS));
    const row = await repo.saveRequestId(this.db, key, this.bindingDigest);
    return row ? { value: row.createdAt.toISOString(), createdAt: row.createdAt.getTime() } : null;
  }

  async getAsync(key: string) {
    const row = await repo.getRequestId(this.db, key);
    if (!row || row.createdAt.getTime() + REQUEST_TTL_MS < Date.now()) return null;
    this.binding = row.value;
    return row.createdAt.toISOString();
  }

  async removeAsync(key: string | null) {
    return key ? ((await repo.deleteRequestId(this.db, key)) ?? null) : null;
  }
}

/** The attributes (by their usual names: LDAP-style, OIDs, ADFS claims) an email and a name are read from. */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'cn',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'urn:oid:2.5.4.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
];
const first = (value: unknown): string | null => {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.trim() ? v.trim() : null;
};

/**
 * SAML 2.0 single sign-on with one identity provider (issue 41, decision 0031), through @node-saml/node-saml: signed
 * AuthnRequests (HTTP-Redirect), signed assertions required (HTTP-POST), audience, recipient, time window, InResponseTo
 * and replay checked; the session is handed to the web client as Google sign-in's is (oidc.handoff).
 */
export class SamlService {
  private spPair: SpKeyPair | null = null;
  private readonly fetched = new Map<string, { at: number; idp: IdpDescription }>();
  private readonly codes: Sealer;
  private readonly errors: Sealer;
  readonly sp: { entityId: string; acsUrl: string; metadataUrl: string };

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly auth: AuthService,
    private readonly config: {
      publicUrl: string;
      authSecret: string;
      dataDir: string;
      saml?: { idpMetadataUrl?: string; idpMetadataXml?: string; spKeyFile?: string; spCertFile?: string };
    },
  ) {
    this.codes = codeSealer(config.authSecret);
    // The same purpose as Google sign-in's errors: the login page opens them with POST /api/auth/google/error.
    this.errors = new Sealer(config.authSecret, 'error');
    const metadataUrl = `${config.publicUrl}/api/auth/saml/metadata`;
    this.sp = { entityId: metadataUrl, acsUrl: `${config.publicUrl}/api/auth/saml/acs`, metadataUrl };
  }

  /** The SP's key pair, read or generated on first use (a server without SSO never writes one). */
  private spKeys(): SpKeyPair {
    this.spPair ??= loadSpKeyPair({
      keyFile: this.config.saml?.spKeyFile,
      certFile: this.config.saml?.spCertFile,
      dataDir: this.config.dataDir,
    });
    return this.spPair;
  }

  private async fetchMetadata(url: string): Promise<IdpDescription> {
    const cached = this.fetched.get(url);
    if (cached && cached.at + METADATA_CACHE_MS > Date.now()) return cached.idp;
    let text: string;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
      if (!res.ok) throw new MetadataError(`The metadata URL answered ${res.status}.`);
      text = await res.text();
    } catch (error) {
      if (error instanceof MetadataError) throw error;
      throw new MetadataError('The metadata URL could not be reached.');
    }
    const idp = parseIdpMetadata(text);
    this.fetched.set(url, { at: Date.now(), idp });
    return idp;
  }

  /** The identity provider in force: the environment's (it overrides the panel), else the panel's. */
  private async effective(): Promise<Effective> {
    const row = await repo.getSettings(this.db);
    const env = this.config.saml;
    const fromEnv = Boolean(env?.idpMetadataXml || env?.idpMetadataUrl);
    const base = {
      row,
      idpInitiated: row?.idpInitiated ?? false,
      // The environment's IdP is on by itself; the panel's only once switched on.
      enabled: fromEnv || (row?.enabled ?? false),
    };
    try {
      if (env?.idpMetadataXml)
        return { ...base, source: 'environment', idp: parseIdpMetadata(env.idpMetadataXml), problem: null };
      if (env?.idpMetadataUrl)
        return { ...base, source: 'environment', idp: await this.fetchMetadata(env.idpMetadataUrl), problem: null };
      if (!row) return { ...base, source: 'none', idp: null, problem: null };
      if (row.idpMetadataXml) return { ...base, source: 'panel', idp: parseIdpMetadata(row.idpMetadataXml), problem: null };
      if (row.idpMetadataUrl)
        return { ...base, source: 'panel', idp: await this.fetchMetadata(row.idpMetadataUrl), problem: null };
      const cert = row.idpCert ? normalizeCert(row.idpCert) : null;
      if (row.idpEntityId && row.idpSsoUrl && cert) {
        return {
          ...base,
          source: 'panel',
          idp: { entityId: row.idpEntityId, ssoUrl: row.idpSsoUrl, certs: [cert] },
          problem: null,
        };
      }
      const any = row.idpEntityId || row.idpSsoUrl || row.idpCert;
      return {
        ...base,
        source: any ? 'panel' : 'none',
        idp: null,
        problem: any ? 'Enter the entity ID, the SSO URL and a certificate, or metadata.' : null,
      };
    } catch (error) {
      if (!(error instanceof MetadataError)) throw error;
      return { ...base, source: fromEnv ? 'environment' : 'panel', idp: null, problem: error.message };
    }
  }

  /** Is sign-in with SSO offered (the login page's 'Sign in with SSO')? */
  async isConfigured(): Promise<boolean> {
    const e = await this.effective();
    return e.enabled && e.idp !== null;
  }

  private instance(idp: IdpDescription, idpInitiated: boolean, cacheProvider: CacheProvider): SAML {
    const sp = this.spKeys();
    return new SAML({
      issuer: this.sp.entityId,
      audience: this.sp.entityId,
      callbackUrl: this.sp.acsUrl,
      entryPoint: idp.ssoUrl,
      idpIssuer: idp.entityId,
      idpCert: idp.certs,
      privateKey: sp.key,
      publicCert: sp.cert,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'sha256',
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      validateInResponseTo: idpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      cacheProvider,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
    });
  }

  /** The SP metadata an IdP is given: entity ID, ACS (HTTP-POST), the signing certificate, signed requests. */
  metadata(): string {
    const sp = this.spKeys();
    const saml = new SAML({
      issuer: this.sp.entityId,
      callbackUrl: this.sp.acsUrl,
      idpCert: 'unused',
      privateKey: sp.key,
      publicCert: sp.cert,
      wantAssertionsSigned: true,
      identifierFormat: null,
    });
    return saml.generateServiceProviderMetadata(null, sp.cert);
  }

  /** A signed AuthnRequest's URL at the IdP, and the browser's new binding (a cookie until the code exchange). */
  async begin(): Promise<{ url: string; binding: string }> {
    const e = await this.effective();
    if (!e.enabled || !e.idp) throw new SamlFlowError('not_configured', 'Single sign-on is not configured on this server.');
    const binding = randomToken();
    const saml = this.instance(e.idp, e.idpInitiated, new RequestIdCache(this.db, sha256(binding)));
    const url = await saml.getAuthorizeUrlAsync('', undefined, {});
    return { url, binding };
  }

  /**
   * The IdP's answer (HTTP-POST) → the one-time code for the web client, and, for an IdP-initiated sign-in (no request
   * of ours, so no binding yet), the binding this browser must now hold.
   */
  async complete(
    body: SamlAcsInput,
    userAgent: string | null,
    ip: string | null,
  ): Promise<{ code: string; newBinding: string | null }> {
    const e = await this.effective();
    if (!e.enabled || !e.idp) throw new SamlFlowError('not_configured', 'Single sign-on is not configured on this server.');
    const envelope = readEnvelope(body.SAMLResponse);
    if (!envelope) throw refused('not a SAML response');
    if (!envelope.inResponseTo && !e.idpInitiated) {
      throw new SamlFlowError(
        'access_denied',
        'Sign-in started at the identity provider is not allowed here. Start from Crewboard’s sign-in page.',
        'idp_initiated_refused',
      );
    }
    if (envelope.destination && envelope.destination !== this.sp.acsUrl) throw refused('wrong Destination');

    const cache = new RequestIdCache(this.db);
    const saml = this.instance(e.idp, e.idpInitiated, cache);
    let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
    } catch (error) {
      throw refused((error as Error)?.message?.slice(0, 200) ?? 'invalid response');
    }
    if (!profile) throw refused('no assertion');
    // Read from the signed assertion node-saml validated (never the envelope): recipient, ID, expiry.
    const assertion = (profile.getAssertion?.() as { Assertion?: AssertionJs } | undefined)?.Assertion;
    if (!assertion) throw refused('no assertion');
    const confirmations = assertion.Subject?.[0]?.SubjectConfirmation ?? [];
    const recipients = confirmations.map((c) => c.SubjectConfirmationData?.[0]?.$?.Recipient).filter(Boolean);
    if (recipients.length === 0 || recipients.some((r) => r !== this.sp.acsUrl)) throw refused('wrong Recipient');
    const assertionId = assertion.$?.ID;
    if (!assertionId) throw refused('assertion without ID');
    const notOnOrAfter =
      assertion.Conditions?.[0]?.$?.NotOnOrAfter ?? confirmations[0]?.SubjectConfirmationData?.[0]?.$?.NotOnOrAfter;
    const expires = notOnOrAfter
      ? new Date(Date.parse(notOnOrAfter) + CLOCK_SKEW_MS)
      : new Date(Date.now() + ASSERTION_FALLBACK_TTL_MS);
    if (Number.isNaN(expires.getTime())) throw refused('bad NotOnOrAfter');
    if (!(await repo.recordAssertionId(this.db, `${e.idp.entityId} ${assertionId}`, expires)))
      throw refused('replayed assertion');

    const nameId = profile.nameID;
    if (!nameId) throw refused('no NameID');
    const email = (first(EMAIL_ATTRIBUTES.map((a) => first(profile[a])).find(Boolean)) ?? (nameId.includes('@') ? nameId : null))
      ?.toLowerCase()
      .slice(0, LIMITS.emailMax + 1);
    const given = first(profile.givenName ?? profile['urn:oid:2.5.4.42']);
    const surname = first(profile.sn ?? profile.surname ?? profile['urn:oid:2.5.4.4']);
    const name =
      NAME_ATTRIBUTES.map((a) => first(profile[a])).find(Boolean) ?? ([given, surname].filter(Boolean).join(' ') || null);

    const issuer = `saml:${e.idp.entityId}`;
    let user: UserRow;
    try {
      user = await this.findOrCreateUser(issuer, nameId, email ?? null, name, ip);
    } catch (error) {
      if (error instanceof SamlFlowError && email) await this.auth.signInFailed(email, null, ip, 'saml', error.error);
      throw error;
    }
    if (!user.isActive) {
      await this.auth.signInFailed(user.email, user.id, ip, 'saml', 'account_deactivated');
      throw new SamlFlowError('access_denied', 'This account has been deactivated');
    }
    const session = await this.auth.startSession(user, userAgent, ip, 'saml');
    const newBinding = cache.binding ? null : randomToken();
    const code = await sealSignInCode(this.codes, session.refresh_token, cache.binding ?? sha256(newBinding!));
    return { code, newBinding };
  }

  /**
   * The account for this NameID: the linked identity; else an existing account with the same email (the IdP vouches for
   * it), linked only when that account has proven its address too; else a new account, its address verified.
   */
  private async findOrCreateUser(
    issuer: string,
    subject: string,
    email: string | null,
    name: string | null,
    ip: string | null,
  ): Promise<UserRow> {
    const linked = await getUserByIdentity(this.db, issuer, subject);
    if (linked) return linked;
    if (!email || !email.includes('@') || email.length > LIMITS.emailMax) {
      throw new SamlFlowError('invalid_request', 'The identity provider did not share an email address.');
    }
    const fullName = (name ?? email.split('@')[0] ?? 'User').slice(0, LIMITS.fullNameMax) || 'User';
    const attempt = () =>
      this.changes.run(this.db, anonymousActor(email, ip), async (tx, record) => {
        const existing = await usersRepo.getOneByEmail(tx, email);
        if (existing) {
          if (!existing.emailVerified) {
            throw new SamlFlowError(
              'access_denied',
              'An account with this email already exists and its address is not verified yet. Sign in with your password and verify your email address first; then you can use single sign-on.',
            );
          }
          await createIdentity(tx, { issuer, subject, userId: existing.id, email });
          return existing;
        }
        const created = await usersRepo.createOne(tx, { email, fullName, avatarUrl: null, emailVerified: true });
        await createIdentity(tx, { issuer, subject, userId: created.id, email });
        await this.auth.afterUserCreated(tx, record, created, 'saml', ip);
        return created;
      });
    try {
      return await attempt();
    } catch (error) {
      if (isUniqueViolation(error)) return (await getUserByIdentity(this.db, issuer, subject)) ?? attempt();
      throw error;
    }
  }

  sealDescription(description: string): Promise<string> {
    return this.errors.seal({ d: description }, ERROR_TTL_SECONDS);
  }

  // ---- the admin panel ----

  async settings(): Promise<SsoSettingsDto> {
    const e = await this.effective();
    const row = e.row;
    return {
      enabled: e.enabled,
      idpInitiated: e.idpInitiated,
      idpMetadataUrl: row?.idpMetadataUrl ?? null,
      idpMetadataXml: row?.idpMetadataXml ?? null,
      idpEntityId: row?.idpEntityId ?? null,
      idpSsoUrl: row?.idpSsoUrl ?? null,
      idpCert: row?.idpCert ?? null,
      source: e.source,
      configured: e.enabled && e.idp !== null,
      problem: e.problem,
      sp: this.sp,
    };
  }

  async updateSettings(actor: ChangeActor, userId: string, input: UpdateSsoSettingsInput): Promise<SsoSettingsDto> {
    const values = {
      enabled: input.enabled,
      idpInitiated: input.idpInitiated,
      idpMetadataUrl: input.idpMetadataUrl ?? null,
      idpMetadataXml: input.idpMetadataXml ?? null,
      idpEntityId: input.idpEntityId ?? null,
      idpSsoUrl: input.idpSsoUrl ?? null,
      idpCert: input.idpCert ?? null,
      updatedBy: userId,
    };
    // What cannot work is refused now, not at the next sign-in.
    const fields: Record<string, string> = {};
    if (values.idpMetadataXml) {
      try {
        parseIdpMetadata(values.idpMetadataXml);
      } catch (error) {
        if (!(error instanceof MetadataError)) throw error;
        fields.idpMetadataXml = error.message;
      }
    }
    if (values.idpCert && !normalizeCert(values.idpCert)) fields.idpCert = 'Paste the certificate in PEM or base64.';
    if (Object.keys(fields).length) throw new AppError('sso_settings_invalid', { fields });
    const source = values.idpMetadataUrl
      ? 'metadata_url'
      : values.idpMetadataXml
        ? 'metadata_xml'
        : values.idpEntityId || values.idpSsoUrl || values.idpCert
          ? 'fields'
          : 'none';
    await this.changes.run(this.db, actor, async (tx, record) => {
      await repo.upsertSettings(tx, values);
      await record({ kind: 'sso.settings_updated', enabled: values.enabled, idpInitiated: values.idpInitiated, source });
    });
    if (values.idpMetadataUrl) this.fetched.delete(values.idpMetadataUrl);
    return this.settings();
  }
}

interface AssertionJs {
  $?: { ID?: string };
  Conditions?: { $?: { NotOnOrAfter?: string } }[];
  Subject?: {
    SubjectConfirmation?: { SubjectConfirmationData?: { $?: { Recipient?: string; NotOnOrAfter?: string } }[] }[];
  }[];
}

/** The Response element's own attributes (unsigned; only to refuse early and to say why). */
function readEnvelope(samlResponse: string): { inResponseTo: string | null; destination: string | null } | null {
  let xml: string;
  try {
    xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  } catch {
    return null;
  }
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: { error: (m: string) => errors.push(m), fatalError: (m: string) => errors.push(m), warning: () => {} },
  }).parseFromString(xml, 'text/xml');
  const root = doc?.documentElement;
  if (errors.length || !root || root.localName !== 'Response' || doc.doctype) return null;
  return { inResponseTo: root.getAttribute('InResponseTo') || null, destination: root.getAttribute('Destination') || null };
}
