/*
 * Stand-in for https://checkout.razorpay.com/v1/checkout.js, served by the development Razorpay emulator.
 * Same browser API: `new Razorpay(options)`, `.on('payment.failed', fn)`, `.open()`, `.close()`.
 * Instead of Razorpay's payment form it shows a test-mode dialog whose buttons settle the order on the emulator,
 * which answers with correctly signed values exactly as Razorpay does. Plain script, no build step, no inline code.
 */
(() => {
  const scriptUrl = document.currentScript ? document.currentScript.src : window.location.href;
  const checkoutApi = new URL('razorpay/checkout/', scriptUrl);
  const DECLINED = 'Payment was declined by the test checkout.';

  const SYMBOLS = { INR: '₹', USD: '$' };

  function group(digits, currency) {
    if (currency !== 'INR' || digits.length <= 3) return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return `${digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${digits.slice(-3)}`;
  }

  function formatAmount(subunits, currency) {
    const value = Math.abs(Math.round(Number(subunits) || 0));
    const whole = Math.floor(value / 100).toString();
    const fraction = (value % 100).toString().padStart(2, '0');
    const symbol = SYMBOLS[currency] || `${currency} `;
    return `${symbol}${group(whole, currency)}.${fraction}`;
  }

  /** Dark text on light theme colours, white on dark ones, so the main button always reads well. */
  function textOn(hex) {
    const match = /^#?([0-9a-f]{6})$/i.exec(String(hex || ''));
    if (!match) return '#ffffff';
    const n = Number.parseInt(match[1], 16);
    const channel = (c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    const luminance =
      0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
    return luminance > 0.35 ? '#0f172a' : '#ffffff';
  }

  function el(tag, style, text) {
    const node = document.createElement(tag);
    if (style) Object.assign(node.style, style);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function post(path, body) {
    const response = await fetch(new URL(path, checkoutApi), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, data };
  }

  let counter = 0;

  class Razorpay {
    constructor(options) {
      this.options = options || {};
      this.listeners = {};
      this.root = null;
    }

    on(event, handler) {
      if (typeof handler === 'function') {
        if (!this.listeners[event]) this.listeners[event] = [];
        this.listeners[event].push(handler);
      }
      return this;
    }

    emit(event, payload) {
      for (const handler of this.listeners[event] || []) handler(payload);
    }

    open() {
      if (this.root) return;
      const options = this.options;
      const theme = options.theme?.color || '#1e3a5f';
      const titleId = `rzp-emulator-title-${++counter}`;
      this.returnFocus = document.activeElement;

      const backdrop = el('div', {
        position: 'fixed',
        inset: '0',
        zIndex: '2147483000',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: '16px',
        background: 'rgba(15, 23, 42, 0.6)',
      });
      const dialog = el('div', {
        width: '100%',
        maxWidth: '420px',
        background: '#ffffff',
        color: '#0f172a',
        borderRadius: '12px',
        boxShadow: '0 24px 48px rgba(15, 23, 42, 0.25)',
        padding: '24px',
        fontFamily: 'Inter, "Segoe UI", system-ui, sans-serif',
        fontSize: '15px',
        lineHeight: '1.5',
        boxSizing: 'border-box',
      });
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-labelledby', titleId);

      const header = el('div', {
        display: 'flex',
        alignItems: 'flex-start',
        justifyContent: 'space-between',
      });
      const headings = el('div');
      const badge = el(
        'p',
        {
          display: 'inline-block',
          margin: '0 0 8px',
          padding: '2px 8px',
          borderRadius: '999px',
          background: '#fef3c7',
          color: '#78350f',
          fontSize: '12px',
          fontWeight: '600',
          letterSpacing: '0.04em',
          textTransform: 'uppercase',
        },
        'Test mode',
      );
      const title = el('h2', { margin: '0', fontSize: '20px', fontWeight: '700' }, 'Razorpay Test Checkout');
      title.id = titleId;
      headings.append(badge, title);
      const close = el(
        'button',
        {
          border: '0',
          background: 'transparent',
          color: '#334155',
          fontSize: '24px',
          lineHeight: '1',
          padding: '4px 8px',
          cursor: 'pointer',
          borderRadius: '6px',
        },
        '×',
      );
      close.type = 'button';
      close.setAttribute('aria-label', 'Close checkout');
      header.append(headings, close);

      const merchant = el('p', { margin: '16px 0 0', color: '#334155' }, options.name || 'Merchant');
      const description = options.description
        ? el('p', { margin: '4px 0 0', color: '#475569', fontSize: '14px' }, options.description)
        : null;
      const amount = el(
        'p',
        { margin: '16px 0 0', fontSize: '28px', fontWeight: '700' },
        formatAmount(options.amount, options.currency),
      );
      const currency = el(
        'p',
        { margin: '0', color: '#475569', fontSize: '13px' },
        `Currency: ${options.currency || 'INR'}`,
      );
      const prefill = options.prefill || {};
      const payer = [prefill.name, prefill.email, prefill.contact].filter(Boolean).join(' · ');
      const payerLine = payer
        ? el('p', { margin: '12px 0 0', color: '#475569', fontSize: '14px' }, payer)
        : null;
      const note = el(
        'p',
        { margin: '16px 0 0', color: '#475569', fontSize: '14px' },
        'No real money moves. Choose how this test payment should end.',
      );
      const status = el('p', { margin: '12px 0 0', minHeight: '1.5em', color: '#b91c1c', fontSize: '14px' });
      status.setAttribute('role', 'status');

      const actions = el('div', { display: 'flex', flexWrap: 'wrap', gap: '12px', marginTop: '20px' });
      const buttonStyle = {
        flex: '1 1 160px',
        minHeight: '44px',
        borderRadius: '8px',
        fontWeight: '600',
        fontSize: '15px',
        cursor: 'pointer',
      };
      const succeed = el(
        'button',
        { ...buttonStyle, border: '0', background: theme, color: textOn(theme) },
        'Simulate success',
      );
      succeed.type = 'button';
      const fail = el(
        'button',
        { ...buttonStyle, border: '1px solid #b91c1c', background: '#ffffff', color: '#b91c1c' },
        'Simulate failure',
      );
      fail.type = 'button';
      actions.append(succeed, fail);

      dialog.append(
        ...[header, merchant, description, amount, currency, payerLine, note, status, actions].filter(
          Boolean,
        ),
      );
      backdrop.append(dialog);
      document.body.append(backdrop);
      this.root = backdrop;
      // As a modal should: the page behind is out of reach of the keyboard and of assistive technology.
      this.inerted = [...document.body.children].filter((node) => node !== backdrop && !node.inert);
      for (const node of this.inerted) node.inert = true;
      this.previousOverflow = document.body.style.overflow;
      document.body.style.overflow = 'hidden';

      const buttons = [close, succeed, fail];
      const setBusy = (busy) => {
        for (const button of buttons) button.disabled = busy;
        succeed.textContent = busy ? 'Processing…' : 'Simulate success';
      };

      this.onKeyDown = (event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          this.dismiss();
        } else if (event.key === 'Tab') {
          const first = buttons[0];
          const last = buttons[buttons.length - 1];
          if (event.shiftKey && document.activeElement === first) {
            event.preventDefault();
            last.focus();
          } else if (!event.shiftKey && document.activeElement === last) {
            event.preventDefault();
            first.focus();
          }
        }
      };
      document.addEventListener('keydown', this.onKeyDown, true);

      close.addEventListener('click', () => this.dismiss());

      succeed.addEventListener('click', async () => {
        setBusy(true);
        status.textContent = '';
        try {
          const { ok, data } = await post(`${encodeURIComponent(options.order_id)}/pay`, {
            key_id: options.key,
          });
          if (!ok) throw new Error(data.error?.description || 'The test payment failed.');
          this.close();
          if (typeof options.handler === 'function') options.handler(data);
        } catch (error) {
          setBusy(false);
          status.textContent = error instanceof Error ? error.message : 'The test payment failed.';
        }
      });

      fail.addEventListener('click', async () => {
        setBusy(true);
        status.textContent = '';
        let failure;
        try {
          const { data } = await post(`${encodeURIComponent(options.order_id)}/fail`, {
            key_id: options.key,
          });
          failure = data.error ? data : null;
        } catch {
          failure = null;
        }
        this.close();
        this.emit(
          'payment.failed',
          failure || {
            error: {
              code: 'BAD_REQUEST_ERROR',
              description: DECLINED,
              source: 'customer',
              step: 'payment_authorization',
              reason: 'payment_failed',
              metadata: { order_id: options.order_id, payment_id: null },
            },
          },
        );
      });

      succeed.focus();
    }

    /** The payer closed the checkout without finishing: Razorpay calls modal.ondismiss. */
    dismiss() {
      this.close();
      const modal = this.options.modal;
      if (modal && typeof modal.ondismiss === 'function') modal.ondismiss();
    }

    close() {
      if (!this.root) return;
      document.removeEventListener('keydown', this.onKeyDown, true);
      this.root.remove();
      this.root = null;
      for (const node of this.inerted || []) node.inert = false;
      this.inerted = [];
      document.body.style.overflow = this.previousOverflow || '';
      // Only to an opener still on the page; when it went (the billing form), the page chooses where focus goes.
      if (this.returnFocus?.isConnected && typeof this.returnFocus.focus === 'function')
        this.returnFocus.focus();
    }
  }

  window.Razorpay = Razorpay;
})();
