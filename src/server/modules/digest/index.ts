// The digest module's public surface: the daily digest's scheduler (started by the composition root's mail runtime).
export { DigestScheduler } from './digest.service';
