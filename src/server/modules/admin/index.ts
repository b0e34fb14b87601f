// The admin module's public surface: what other modules and the composition root may import (a *.repo.ts stays private).
export { AdminService } from './admin.service';
export { setSystemRole } from './set-role';
