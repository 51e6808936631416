export {
  AutonomySchema,
  AutonomySourceSchema,
  parseAutonomy,
  resolveAutonomy,
  type Autonomy,
  type AutonomyInputs,
  type AutonomySource,
  type ResolvedAutonomy,
} from './resolve.js';
