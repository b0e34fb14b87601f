// The audit module's public surface: its service, and recording an audit row (with who did it).
export { AUDIT_BY_CLI, type AuditBy, type AuditEntry, auditByOf, ownAccountAudit, recordAudit } from './audit.record';
export { AuditService } from './audit.service';
