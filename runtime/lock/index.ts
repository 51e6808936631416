export { armLock, grantLift, grantsIn, isRegularFile, readLockRecord, releaseLock, LockError, SANDBOX_PLACEHOLDERS, type ArmResult, type Grant, type LockRecord } from './arm.js';
export { excludedCommands, excludedWarning, sandboxAvailability, sandboxRequiredError, sandboxWarning, type SandboxAvailability } from './sandbox.js';
export * from './paths.js';
