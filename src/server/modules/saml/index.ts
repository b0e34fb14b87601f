// The SAML module's public surface: its service (the composition root builds it; the sign-in page's providers ask it).
export { registerSaml } from './saml.routes';
export { SamlService } from './saml.service';
