export { armLock, endGrants, grantLift, grantsIn, readLockRecord, releaseLock, tokenPath, LockError, SANDBOX_PLACEHOLDERS, type ArmResult, type Grant, type LockRecord, type OsLayer } from './arm.js';
export { renderAudit, type AuditBaseline, type AuditChange } from './audit.js';
export { acceptChanges, grantsEndedText, liftReview, reviewLock } from './review.js';
export { excludedCommands, excludedWarning, sandboxAvailability, sandboxRequiredError, sandboxWarning, type SandboxAvailability } from './sandbox.js';
export * from './paths.js';
export { isArmed, isRegularFile, isSandboxPlaceholder, isToken } from './files.js';
