export { armLock, grantLift, grantsIn, readLockRecord, releaseLock, LockError, SANDBOX_PLACEHOLDERS, type ArmResult, type Grant, type LockRecord, type OsLayer } from './arm.js';
export { excludedCommands, excludedWarning, sandboxAvailability, sandboxRequiredError, sandboxWarning, type SandboxAvailability } from './sandbox.js';
export * from './paths.js';
export { isArmed, isRegularFile, isToken } from './files.js';
