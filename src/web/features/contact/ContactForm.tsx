import { Send } from 'lucide';
import { useRef } from 'react';
import { CONTACT_TOPICS } from '../../../shared/constants';
import { MAX_LENGTH } from '../../../shared/limits';
import { controlProps, Field, inputClass, PrimaryButton, Select } from '../../components/form';
import { Icon } from '../../components/Icon';
import { useHydrated } from '../../lib/prerendered-form';
import { ContactResult } from './ContactResult';
import { type ContactField, useContactForm } from './useContactForm';

/**
 * The 'Send Us a Message' form (docs/product.md §2, §4, §5, §8), replaced by a green or red result box once sent.
 */
export function ContactForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const form = useContactForm(formRef);
  const hydrated = useHydrated();
  const { values, errors, idOf } = form;

  if (form.info) {
    return (
      <ContactResult
        info={form.info}
        success={form.submitted && !form.info.error}
        resultRef={form.resultRef}
        onBack={form.backToForm}
      />
    );
  }

  const inputProps = (field: ContactField) => ({
    ...controlProps(idOf(field), errors[field]),
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => form.change(field)(event.target.value),
  });

  return (
    <form ref={formRef} noValidate onSubmit={form.onSubmit} className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id={idOf('name')} label="Name" required error={errors.name}>
          <input
            type="text"
            autoComplete="name"
            maxLength={MAX_LENGTH.contactName}
            aria-required="true"
            {...inputProps('name')}
            className={inputClass(Boolean(errors.name))}
          />
        </Field>
        <Field id={idOf('organisation')} label="Organization" optional error={errors.organisation}>
          <input
            type="text"
            autoComplete="organization"
            maxLength={MAX_LENGTH.contactOrganisation}
            {...inputProps('organisation')}
            className={inputClass(Boolean(errors.organisation))}
          />
        </Field>
        <Field id={idOf('email')} label="Email" required error={errors.email}>
          <input
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={MAX_LENGTH.email}
            aria-required="true"
            {...inputProps('email')}
            className={inputClass(Boolean(errors.email))}
          />
        </Field>
        <Field id={idOf('relatedTo')} label="Related To" required error={errors.relatedTo}>
          <Select
            id={idOf('relatedTo')}
            name="relatedTo"
            aria-required="true"
            value={values.relatedTo}
            onValueChange={form.change('relatedTo')}
            options={CONTACT_TOPICS}
            placeholder="Select an option"
            error={errors.relatedTo}
          />
        </Field>
      </div>
      <Field id={idOf('description')} label="Description" required error={errors.description}>
        <textarea
          rows={6}
          maxLength={MAX_LENGTH.contactDescription}
          aria-required="true"
          placeholder="How can we help? A few lines about your business and what you need are plenty."
          {...inputProps('description')}
          className={`${inputClass(Boolean(errors.description))} min-h-36 resize-y`}
        />
      </Field>
      {/* Honeypot: invisible and unreachable for people and assistive technology; bots tend to fill it in. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={idOf('website')}>Leave this field empty</label>
        <input
          id={idOf('website')}
          type="text"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={(event) => form.change('website')(event.target.value)}
        />
      </div>
      <div className="flex flex-col-reverse gap-4 pt-1 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          <span aria-hidden="true" className="text-accent-700">
            *
          </span>{' '}
          Required fields
        </p>
        <PrimaryButton
          size="large"
          busy={form.submitting}
          busyLabel="Sending..."
          disabled={!hydrated}
          icon={<Icon node={Send} className="size-5" />}
        >
          Send Message
        </PrimaryButton>
      </div>
    </form>
  );
}
