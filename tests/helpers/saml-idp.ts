import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as samlify from 'samlify';
import { generateSpKeyPair } from '../../src/server/modules/saml/saml.keys';

/**
 * A SAML 2.0 identity provider that is not our code: samlify (tngan/samlify) acting as IdP, served on 127.0.0.1. It
 * verifies the SP's signed AuthnRequest (HTTP-Redirect) against the SP's metadata, and answers with a signed
 * Response (HTTP-POST) as a tiny auto-posting form, the way a real IdP's login page ends. Tests shape the next answer
 * (`next`) to forge what an attacker or a broken IdP would send.
 */

// samlify asks for an XSD validator; the SP under test (node-saml) does its own checks, so the IdP skips schema validation.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpUser {
  nameId: string;
  email?: string;
  name?: string;
}

/** How to bend the next answer: tag values of samlify's template (Audience, ConditionsNotOnOrAfter…), unsigned, a tamper. */
export interface NextAnswer {
  tags?: Record<string, string>;
  /** Sign the Response but not the Assertion. */
  unsignedAssertion?: boolean;
  /** Change the signed assertion's content after signing (the NameID), keeping its signature. */
  tamper?: boolean;
}

export interface TestIdp {
  url: string;
  entityId: string;
  metadataXml: string;
  certBase64: string;
  /** The user the login page signs in as (no password form: the page posts at once). */
  user: IdpUser;
  next: NextAnswer;
  /** The SP this IdP trusts, from its metadata (fetched from the SP). */
  trustSp(spMetadataXml: string): void;
  /** A signed Response for the trusted SP: to its request (`requestId`) or unsolicited (IdP-initiated). */
  respond(requestId: string | null, user?: IdpUser, next?: NextAnswer): Promise<string>;
  /** The AuthnRequests it accepted (their IDs), and the ones it refused (why). */
  accepted: string[];
  refused: string[];
  close(): Promise<void>;
}

const attributeStatement = (user: IdpUser) => {
  const attrs = [...(user.email ? [['email', user.email]] : []), ...(user.name ? [['displayName', user.name]] : [])];
  if (attrs.length === 0) return '';
  return `<saml:AttributeStatement>${attrs
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('')}</saml:AttributeStatement>`;
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function startTestIdp(): Promise<TestIdp> {
  const { key, cert } = generateSpKeyPair();
  let server: Server | null = null;
  const port = await new Promise<number>((resolve) => {
    server = createServer((req, res) => void handle(req.url ?? '/', res));
    server.listen(0, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port));
  });
  const url = `http://127.0.0.1:${port}`;
  const entityId = `${url}/idp`;
  const certBase64 = cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey: key,
    signingCert: cert,
    wantAuthnRequestsSigned: true,
    isAssertionEncrypted: false,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'],
    singleSignOnService: [{ Binding: REDIRECT, Location: `${url}/sso` }],
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  let sp: ReturnType<typeof samlify.ServiceProvider> | null = null;
  let spMetadata = '';

  const state: TestIdp = {
    url,
    entityId,
    metadataXml: idp.getMetadata(),
    certBase64,
    user: { nameId: 'idp-user-1', email: 'sso.user@example.org', name: 'Sso User' },
    next: {},
    accepted: [],
    refused: [],
    trustSp(xml) {
      spMetadata = xml;
      sp = samlify.ServiceProvider({ metadata: xml, wantMessageSigned: false });
    },
    async respond(requestId, user = state.user, next = state.next) {
      if (!sp) throw new Error('trustSp first');
      const target = next.unsignedAssertion
        ? samlify.ServiceProvider({
            metadata: spMetadata.replace(/WantAssertionsSigned="true"/, 'WantAssertionsSigned="false"'),
            wantMessageSigned: true,
          })
        : sp;
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const { context } = await idp.createLoginResponse(
        target,
        { extract: { request: { id: requestId ?? '' } } },
        'post',
        { email: user.nameId },
        (template: string) => {
          const id = `_${crypto.randomUUID()}`;
          const values: Record<string, string> = {
            ID: id,
            AssertionID: `_${crypto.randomUUID()}`,
            Destination: sp!.entityMeta.getAssertionConsumerService('post') as string,
            Audience: sp!.entityMeta.getEntityID(),
            SubjectRecipient: sp!.entityMeta.getAssertionConsumerService('post') as string,
            Issuer: entityId,
            IssueInstant: now.toISOString(),
            StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
            ConditionsNotBefore: now.toISOString(),
            ConditionsNotOnOrAfter: later,
            SubjectConfirmationDataNotOnOrAfter: later,
            NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
            NameID: user.nameId,
            InResponseTo: requestId ?? '',
            AuthnStatement: '{AuthnStatementXml}',
            AttributeStatement: '{AttributeStatementXml}',
            ...next.tags,
          };
          // Tag values are escaped: the two statements (markup) go in after.
          const statements = {
            AuthnStatementXml: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
            AttributeStatementXml: attributeStatement(user),
          };
          let context = Object.entries(values)
            .reduce((xml, [tag, value]) => xml.replaceAll(`{${tag}}`, escapeXml(value)), template)
            .replace('{AuthnStatementXml}', statements.AuthnStatementXml)
            .replace('{AttributeStatementXml}', statements.AttributeStatementXml);
          // An unsolicited answer has no InResponseTo at all (not an empty one).
          if (!requestId) context = context.replace(/ InResponseTo=""/g, '');
          return { id, context };
        },
      );
      if (!next.tamper) return context;
      const xml = Buffer.from(context, 'base64').toString('utf8');
      return Buffer.from(xml.replace(`>${user.nameId}</`, '>someone-else</')).toString('base64');
    },
    async close() {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };

  async function handle(rawUrl: string, res: import('node:http').ServerResponse) {
    const parsed = new URL(rawUrl, url);
    if (parsed.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(state.metadataXml);
      return;
    }
    if (parsed.pathname !== '/sso' || !sp) {
      res.writeHead(404).end();
      return;
    }
    try {
      const rawQuery = rawUrl.split('?')[1] ?? '';
      const octetString = rawQuery
        .split('&')
        .filter((p) => !p.startsWith('Signature='))
        .join('&');
      const query = Object.fromEntries(parsed.searchParams);
      const { extract } = await idp.parseLoginRequest(sp, 'redirect', { query, octetString });
      const requestId = extract.request?.id as string;
      state.accepted.push(requestId);
      const response = await state.respond(requestId);
      const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
      const relay = parsed.searchParams.get('RelayState');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><title>Test IdP</title></head><body>
<form method="post" action="${acs}" id="saml"><input type="hidden" name="SAMLResponse" value="${response}">
${relay ? `<input type="hidden" name="RelayState" value="${relay.replace(/"/g, '&quot;')}">` : ''}
<button type="submit">Continue to Crewboard</button></form>
<script>document.getElementById('saml').submit()</script></body></html>`);
    } catch (error) {
      state.refused.push(String((error as Error)?.message ?? error));
      res.writeHead(400, { 'content-type': 'text/plain' }).end('request refused');
    }
  }

  return state;
}

/** The SAMLResponse of an IdP's auto-post page. */
export function samlResponseOf(html: string): string {
  const m = /name="SAMLResponse" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no SAMLResponse in: ${html.slice(0, 200)}`);
  return m[1]!;
}
