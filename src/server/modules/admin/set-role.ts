import type { SystemRole } from '../../../domain/constants';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AUDIT_BY_CLI, recordAudit } from '../audit/audit.record';
import { setRoleByEmail } from '../users/users.repo';

/**
 * `npm run cli -- set-role` (directly, or through the running server's admin socket): sets the system role and
 * appends its `admin.role_set` audit row in one transaction. The CLI has no signed-in actor: `details.via` names it.
 */
export async function setSystemRole(
  db: Db,
  email: string,
  role: SystemRole,
  via: 'cli' | 'cli_socket',
): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const user = await setRoleByEmail(tx, email, role);
    if (!user) return undefined;
    await recordAudit(tx, {
      action: 'admin.role_set',
      ...AUDIT_BY_CLI,
      targetType: 'user',
      targetId: user.id,
      targetLabel: user.email,
      details: { role, via },
    });
    return user;
  });
}
