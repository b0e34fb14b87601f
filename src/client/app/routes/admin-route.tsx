import { AdminPage } from '../../features/admin/components/admin-page';
import { AdminAuditSection } from '../../features/audit/components/admin-audit-section';

/** /admin: the admin feature's page, with the audit feature's instance-wide log in it. */
export function AdminRoute() {
  return <AdminPage auditLog={<AdminAuditSection />} />;
}
