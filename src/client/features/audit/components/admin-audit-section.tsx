import { AUDIT_ACTIONS } from '../../../../domain/constants';
import { rootKey } from '../../../lib/query-keys';
import { type AuditFilters, auditQueryOf } from '../api/audit-api';
import { AuditLog } from './audit-log';

/** Under the admin pages' root (the admin feature's keys start there too). */
const auditKey = (filters: AuditFilters) => [...rootKey('admin'), 'audit', auditQueryOf(filters)] as const;

/** The admin panel's audit log (issue 26): every security-relevant action of the instance. Placed by app/routes. */
export function AdminAuditSection() {
  return (
    <AuditLog
      title="Audit log"
      description="Sign-ins, account, team and admin changes across the whole instance."
      path="/api/admin/audit"
      queryKey={auditKey}
      actions={AUDIT_ACTIONS}
    />
  );
}
