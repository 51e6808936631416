// The finder lives in runtime/fs so the hooks share it; the compiler re-exports it.
export { BRIEF_DIR, findBriefDir } from '../../runtime/fs/brief-dir.js';
