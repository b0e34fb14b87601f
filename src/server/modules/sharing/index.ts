// The sharing module's public surface: its routes (a project's public board link, issue 40) and its service.
export { registerSharing } from './sharing.routes';
export { SharingService } from './sharing.service';
