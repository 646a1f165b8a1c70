/**
 * The audit trail moved below the modules (src/server/audit/, issue 49: admin/ stops being the
 * hub every module imports). This path stays for the catalogue's service until its next change
 * imports "../audit"; new code imports the audit module.
 */
export { listAudit, recordAudit, type AuditActor, type AuditRecord } from "../audit";
