import { MAX_SEATS } from '../../../shared/seats';
import { controlProps, Field, inputClass } from '../../components/form';

/**
 * How many seats the order buys (docs/decisions/051-team-licenses.md): one for the buyer, more make a team; for
 * "Add seats", how many more the team gets beside the `addSeatsTo` it has.
 */
export function SeatsField({
  id,
  value,
  error,
  onChange,
  addSeatsTo,
}: {
  id: string;
  /** As typed: checked when the form is sent. */
  value: string;
  error?: string;
  onChange: (seats: string) => void;
  addSeatsTo?: number;
}) {
  return (
    <Field
      id={id}
      label={addSeatsTo ? 'Seats to add' : 'Seats'}
      required
      hint={
        addSeatsTo
          ? `Your team has ${addSeatsTo} ${addSeatsTo === 1 ? 'seat' : 'seats'}. Each new seat is one more person.`
          : 'One seat for yourself; more make a team, and you invite each person by email.'
      }
      error={error}
    >
      <input
        {...controlProps(id, error, true)}
        type="number"
        inputMode="numeric"
        required
        min={1}
        max={MAX_SEATS}
        step={1}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={inputClass(Boolean(error))}
      />
    </Field>
  );
}
