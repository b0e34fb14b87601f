import type { SystemRole } from '../../../domain/constants';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { ChangeRecorder } from '../../lib/changes';
import { setRoleByEmail } from '../users';

/**
 * `npm run cli -- set-role` (directly, or through the running server's admin socket): sets the system role and
 * appends its `admin.role_set` audit row in one transaction. The CLI has no signed-in actor: `details.via` names it.
 */
export async function setSystemRole(
  changes: ChangeRecorder,
  db: Db,
  email: string,
  role: SystemRole,
  via: 'cli' | 'cli_socket',
): Promise<UserRow | undefined> {
  return changes.run(db, { kind: 'system', via }, async (tx, record) => {
    const user = await setRoleByEmail(tx, email, role);
    if (!user) return undefined;
    await record({ kind: 'account.role_set', userId: user.id, email: user.email, role, via });
    return user;
  });
}
