import { AUDIT_ACTIONS } from '../../../../domain/constants';
import { type AuditFilters, auditQueryOf } from '../../../components/audit/audit-api';
import { AuditLog } from '../../../components/audit/audit-log';
import { adminKeys } from '../api/admin-keys';

const auditKey = (filters: AuditFilters) => [...adminKeys.all, 'audit', auditQueryOf(filters)] as const;

/** The admin panel's audit log (issue 26): every security-relevant action of the instance. */
export function AuditLogPanel() {
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
