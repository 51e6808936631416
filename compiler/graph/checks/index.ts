import type { Check } from '../context.js';
import { cycles } from './cycle.js';
import { danglingEdges } from './dangling-edge.js';
import { didYouMean } from './did-you-mean.js';
import { droppedDependencies } from './dropped-dependency.js';
import { duplicateAnchors } from './duplicate-anchor.js';
import { emptyPlan } from './empty-plan.js';
import { emptyToolCommands } from './empty-tool-command.js';
import { nestingTooDeep } from './nesting-too-deep.js';
import { notACheckbox } from './not-a-checkbox.js';
import { numberingChanged } from './numbering-changed.js';
import { orphanMarkers } from './orphan-marker.js';
import { unknownMarkers } from './unknown-marker.js';
import { unmetNeeds } from './unmet-need.js';
import { unreachableItems } from './unreachable.js';
import { unroutableSignals } from './unroutable-signal.js';
import { writeScopeOverlaps } from './write-scope-overlap.js';

/** Every graph check, one per diagnostic code; order does not matter (output is sorted). */
export const CHECKS: readonly Check[] = [
  emptyPlan,
  cycles,
  danglingEdges,
  unmetNeeds,
  unreachableItems,
  duplicateAnchors,
  emptyToolCommands,
  unroutableSignals,
  droppedDependencies,
  orphanMarkers,
  unknownMarkers,
  numberingChanged,
  writeScopeOverlaps,
  didYouMean,
  notACheckbox,
  nestingTooDeep,
];
