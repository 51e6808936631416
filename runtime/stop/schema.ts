import { z } from 'zod';
import { STOP_REASONS } from './conditions.js';

/** Every stop condition as a zod enum (kept apart from conditions.ts, which the workflow bundles). */
export const StopReasonSchema = z.enum(STOP_REASONS);
