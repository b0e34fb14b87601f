// The me module's public surface.
export { MeService } from './me.service';
