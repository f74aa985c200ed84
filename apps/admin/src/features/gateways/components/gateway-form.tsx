import { useQueryClient } from '@tanstack/react-query';
import {
  Checkbox,
  Col,
  Divider,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Row,
  Switch,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { LANGUAGES, type Language } from '@skyway/shared/languages';
import {
  EPAY_MODES,
  GATEWAY_FEE_MAX,
  gatewayFormOf,
  type GatewayKind,
  type GatewayMethod,
  type GatewayUpdateRequest,
} from '@skyway/shared/schemas/admin/gateways';
import { LANGUAGE_NAMES } from '../../../lib/i18n.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { type Gateway, GATEWAYS_KEY } from '../api/list-gateways.ts';
import { createGateway, type GatewayCreateBody, updateGateway } from '../api/save-gateway.ts';

type Fields = Record<string, string>;

/** The form's values: the fee in percent (sent in basis points), keys blank unless typed. */
interface GatewayValues {
  names: Record<Language, string>;
  methods: GatewayMethod[];
  position: number;
  /** Two decimals at most; none: no fee. */
  fee_percent: number | null;
  enabled: boolean;
  settings: Fields;
  keys: Fields;
}

/** What a kind is configured with and can collect with, as the shared request schemas say. */
export function kindForm(kind: GatewayKind) {
  const form = gatewayFormOf(kind);
  if (!form) throw new Error(`no form for gateway kind ${kind}`);
  return {
    methods: form.methods.element.options as readonly GatewayMethod[],
    settings: form.settings.shape as Record<string, z.ZodType>,
    keys: form.keys.shape as Record<string, z.ZodType>,
  };
}

/** Each field of a group at its schema's default (an Epay's mode, Alipay's OpenAPI gateway), else blank. */
const blank = (group: Record<string, z.ZodType>): Fields =>
  Object.fromEntries(
    Object.entries(group).map(([name, schema]) => {
      const parsed = schema.safeParse(undefined);
      return [name, parsed.success && typeof parsed.data === 'string' ? parsed.data : ''];
    }),
  );

const valuesOf = (kind: GatewayKind, gateway: Gateway | null): GatewayValues => {
  const form = kindForm(kind);
  // Keys are never shown: the field stays blank, and blank keeps the stored ones.
  const keys = Object.fromEntries(Object.keys(form.keys).map((name) => [name, '']));
  if (!gateway) {
    return {
      names: { en: '', zh: '', tw: '' },
      methods: [...form.methods],
      position: 0,
      fee_percent: null,
      enabled: true,
      settings: blank(form.settings),
      keys,
    };
  }
  return {
    names: gateway.names,
    methods: gateway.methods,
    position: gateway.position,
    fee_percent: gateway.fee_bps === null ? null : gateway.fee_bps / 100,
    enabled: gateway.enabled,
    settings: { ...blank(form.settings), ...(gateway.settings as Fields) },
    keys,
  };
};

/** The request's fields: the fee in basis points, the keys only when some were typed. */
const bodyOf = (values: GatewayValues) => {
  const typed = Object.values(values.keys).some((key) => key !== '');
  return {
    names: values.names,
    methods: values.methods,
    position: values.position,
    fee_bps:
      values.fee_percent === null || values.fee_percent === undefined
        ? null
        : Math.round(values.fee_percent * 100),
    enabled: values.enabled,
    settings: values.settings,
    ...(typed ? { keys: values.keys } : {}),
  };
};

/**
 * Where a field the server refused is on the form: the fee's percent field, or, within the settings
 * or the keys, the first one the shared schema refuses, else the group's only field, else the one
 * only the server checks (an Alipay key that does not read as an RSA key).
 */
function serverFieldOf(kind: GatewayKind, form: FormInstance<GatewayValues>) {
  const groups = kindForm(kind);
  const serverChecked: Record<string, string> = { settings: 'alipay_public_key', keys: 'private_key' };
  return (field: string): (string | number)[] | undefined => {
    if (field === 'fee_bps') return ['fee_percent'];
    if (field === 'methods' || field === 'position' || field === 'enabled') return [field];
    if (field !== 'settings' && field !== 'keys') return undefined;
    const schemas = groups[field];
    const values = (form.getFieldValue(field) ?? {}) as Fields;
    const names = Object.keys(schemas);
    const failing = names.find((key) => !schemas[key]?.safeParse(values[key]).success);
    const onlyServer = serverChecked[field];
    const name =
      failing ??
      (names.length === 1 ? names[0] : onlyServer && onlyServer in schemas ? onlyServer : undefined);
    return name ? [field, name] : undefined;
  };
}

/** A check of one field by the shared schema the server checks it with; blank passes when `optional`. */
const schemaRule = (schema: z.ZodType | undefined, message: string, optional = false): Rule => ({
  validator: async (_, value: string | undefined) => {
    if (optional && !value) return;
    if (!schema?.safeParse(value ?? '').success) throw new Error(message);
  },
});

/** A setting's input: Epay's mode a choice, Alipay's public key a text box, the rest a line. */
function settingInput(name: string, modeLabel: (mode: string) => string) {
  if (name === 'mode')
    return <Radio.Group options={EPAY_MODES.map((mode) => ({ value: mode, label: modeLabel(mode) }))} />;
  if (name === 'alipay_public_key') return <Input.TextArea rows={3} autoComplete="off" />;
  return <Input autoComplete="off" />;
}

/**
 * Adds a payment gateway of a kind, or changes one: the kind's settings, the methods it collects
 * with, its names on the buy page, its place among the others, its fee, on or off, and its keys.
 * Keys are written, never read: blank on a change keeps the stored ones.
 */
export function GatewayModal(props: { kind: GatewayKind; gateway: Gateway | null; onClose: () => void }) {
  const { t } = useTranslation(['gateways', 'common']);
  const client = useQueryClient();
  const [form] = Form.useForm<GatewayValues>();
  const { kind, gateway } = props;
  const groups = kindForm(kind);
  const required = { required: true, whitespace: true, message: t('common:required') };
  const kindName = t(`kind_${kind}`);
  return (
    <FormModal
      open
      title={gateway ? t('editGateway', { kind: kindName }) : t('addKind', { kind: kindName })}
      width={720}
      form={form}
      initialValues={valuesOf(kind, gateway)}
      onClose={props.onClose}
      testId="gateway-form"
      serverField={serverFieldOf(kind, form)}
      onSubmit={async (values) => {
        const body = bodyOf(values);
        try {
          // The settings and keys are the kind's, as its schema's fields put them on the form.
          if (gateway) await updateGateway(gateway.id, body as GatewayUpdateRequest);
          else await createGateway({ kind, ...body } as GatewayCreateBody);
        } finally {
          await client.invalidateQueries({ queryKey: GATEWAYS_KEY });
        }
      }}
    >
      <Divider titlePlacement="start" plain>
        {t('sectionBuyers')}
      </Divider>
      <Row gutter={16}>
        {LANGUAGES.map((language) => (
          <Col xs={24} md={8} key={language}>
            <Form.Item
              name={['names', language]}
              label={t('buyerName', { language: LANGUAGE_NAMES[language] })}
              rules={[required]}
            >
              <Input maxLength={60} autoComplete="off" />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Form.Item
        name="methods"
        label={t('methods')}
        rules={[{ required: true, type: 'array', min: 1, message: t('methodsRequired') }]}
      >
        <Checkbox.Group
          options={groups.methods.map((method) => ({ value: method, label: t(`method_${method}`) }))}
        />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="fee_percent" label={t('fee')} extra={t('feeHint', { max: GATEWAY_FEE_MAX / 100 })}>
            <InputNumber
              min={0}
              max={GATEWAY_FEE_MAX / 100}
              precision={2}
              step={0.1}
              suffix="%"
              placeholder={t('noFee')}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="position"
            label={t('position')}
            extra={t('positionHint')}
            rules={[{ required: true, message: t('common:required') }]}
          >
            <InputNumber min={0} max={1000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Divider titlePlacement="start" plain>
        {t('sectionConnection', { kind: kindName })}
      </Divider>
      {Object.entries(groups.settings).map(([name, schema]) => (
        <Form.Item
          key={name}
          name={['settings', name]}
          label={t(`setting_${kind}_${name}` as 'setting_epay_url')}
          extra={t(`settingHint_${kind}_${name}` as 'settingHint_epay_url')}
          rules={[schemaRule(schema, t(`settingInvalid_${name}` as 'settingInvalid_url'))]}
        >
          {settingInput(name, (mode) => t(`mode_${mode}` as 'mode_page'))}
        </Form.Item>
      ))}
      <Divider titlePlacement="start" plain>
        {t('sectionKeys')}
      </Divider>
      {Object.entries(groups.keys).map(([name, schema]) => (
        <Form.Item
          key={name}
          name={['keys', name]}
          label={t(`key_${name}` as 'key_key')}
          extra={gateway ? t('keysKeepHint') : t('keysWriteOnlyHint')}
          rules={[
            ...(gateway ? [] : [required]),
            schemaRule(schema, t(`keyInvalid_${name}` as 'keyInvalid_key'), Boolean(gateway)),
          ]}
        >
          {name === 'private_key' ? (
            <Input.TextArea
              rows={3}
              autoComplete="off"
              placeholder={gateway?.keys_set ? t('keysSetPlaceholder') : undefined}
            />
          ) : (
            <Input.Password
              autoComplete="new-password"
              placeholder={gateway?.keys_set ? t('keysSetPlaceholder') : undefined}
            />
          )}
        </Form.Item>
      ))}
    </FormModal>
  );
}
