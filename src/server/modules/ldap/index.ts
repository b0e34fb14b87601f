// The ldap module's public surface: directory sign-in (issue 41), which the composition root hands to AuthService,
// and its settings (read by config.ts).
export { type LdapConfig, type LocalPasswordsConfig, loadLdapConfig, loadLocalPasswords } from './ldap.config';
export { LdapService } from './ldap.service';
