// The line diff lives in the sdk (shared with the CLI).
export { type DiffLine, type DiffSegment, diffLines, type NumberedLine, unifiedDiff } from '@kernelforge/sdk';
