import { DOMParser } from '@xmldom/xmldom';

/** The identity provider as Crewboard uses it: who it is, where to send requests, which certificates sign for it. */
export interface IdpDescription {
  entityId: string;
  ssoUrl: string;
  certs: string[];
}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export class MetadataError extends Error {}

/**
 * Reads an IdP's metadata (an EntityDescriptor, or the first IdP in an EntitiesDescriptor): its entityID, its
 * HTTP-Redirect SingleSignOnService, and its signing certificates. Throws MetadataError with a reason a person can act on.
 */
export function parseIdpMetadata(xml: string): IdpDescription {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: { error: (m: string) => errors.push(m), fatalError: (m: string) => errors.push(m), warning: () => {} },
  }).parseFromString(xml, 'text/xml');
  if (errors.length || !doc?.documentElement) throw new MetadataError('The metadata is not well-formed XML.');
  // A DOCTYPE could expand entities: metadata never needs one.
  if (doc.doctype) throw new MetadataError('The metadata must not carry a DOCTYPE.');
  const idp = Array.from(doc.getElementsByTagNameNS(MD, 'IDPSSODescriptor'))[0];
  if (!idp) throw new MetadataError('The metadata describes no identity provider (IDPSSODescriptor).');
  const entity = idp.parentNode as Element | null;
  const entityId = entity?.getAttribute?.('entityID')?.trim();
  if (!entityId) throw new MetadataError('The metadata has no entityID.');
  const sso = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService')).find(
    (e) => e.getAttribute('Binding') === REDIRECT,
  );
  const ssoUrl = sso?.getAttribute('Location')?.trim();
  if (!ssoUrl) throw new MetadataError('The metadata has no HTTP-Redirect SingleSignOnService.');
  const certs = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((k) => !k.getAttribute('use') || k.getAttribute('use') === 'signing')
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS, 'X509Certificate')))
    .map((c) => (c.textContent ?? '').replace(/\s+/g, ''))
    .filter(Boolean);
  if (certs.length === 0) throw new MetadataError('The metadata has no signing certificate.');
  return { entityId, ssoUrl, certs: [...new Set(certs)] };
}

/** A certificate as pasted (PEM or bare base64) → bare base64, which node-saml accepts; null when it is not one. */
export function normalizeCert(text: string): string | null {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  return /^[A-Za-z0-9+/]+={0,2}$/.test(body) && body.length > 100 ? body : null;
}
