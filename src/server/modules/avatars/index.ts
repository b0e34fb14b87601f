// The avatars module's public surface: its service (Settings → Profile's image, served by capability URL).
export { AVATAR_MAX_BYTES, AvatarsService } from './avatars.service';
