// "Compare with…": pick another of the viewer's submissions to the same problem and open the two side by side.
import type { Submission } from '@kernelforge/sdk';
import { useState } from 'react';
import { useMySubmissionsOn } from '../hooks/useMySubmissions';
import { formatDate, formatMs } from '../lib/format';
import { comparePairPath } from '../lib/submissionCompare';
import { AppLink } from './AppLink';
import { buttonClass } from './Button';
import { SelectField } from './fields';

const optionText = (s: Submission) =>
  [formatDate(s.created_at), s.device, s.verdict?.replace(/_/g, ' ') ?? s.status, formatMs(s.time_ms)].join(' · ');

export function CompareWith({ submission }: { submission: Submission }) {
  const { data } = useMySubmissionsOn(submission.problem_name);
  const others = data?.data.filter((s) => s.id !== submission.id) ?? [];
  const [picked, setPicked] = useState('');
  const other = others.find((s) => s.id === picked) ?? others[0];
  if (!other) return null;
  return (
    <div className="mb-6 flex flex-wrap items-end gap-2" data-testid="compare-with">
      <div className="min-w-0 flex-1 basis-60 sm:max-w-md">
        <SelectField label="Compare with…" value={other.id} onChange={(e) => setPicked(e.target.value)}>
          {others.map((s) => (
            <option key={s.id} value={s.id}>
              {optionText(s)}
            </option>
          ))}
        </SelectField>
      </div>
      <AppLink href={comparePairPath(submission, other)} className={buttonClass('primary')}>
        Compare
      </AppLink>
    </div>
  );
}
