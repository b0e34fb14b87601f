// The security module's public surface: sessions and two-factor sign-in.
export { SessionsService } from './sessions.service';
export { TwoFactorService } from './two-factor.service';
