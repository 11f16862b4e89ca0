// The roofline rules live in the judge (judge.ts); this module keeps their old import path.
export {
  caseFigures,
  FLAG_FRACTION,
  FLAG_SPEEDUP,
  flopsPeak,
  implausibleReason,
  PEAK_MARGIN,
  peaksBelieved,
  reviewReasons,
  underPeakMeasuredUnderLoad,
} from './judge.js';
