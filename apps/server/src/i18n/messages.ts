import type { Reason } from '@skyway/shared/envelope';
import type { Language } from '@skyway/shared/languages';

/** Every `msg` the server can send, keyed by reason or by success message. */
export const SUCCESS_MESSAGES = [
  'ok',
  'code_sent',
  'registered',
  'signed_in',
  'signed_out',
  'password_reset',
  'password_changed',
  'email_changed',
  'trial_granted',
  'rewards_withdrawn',
] as const;

export type MessageKey = Reason | (typeof SUCCESS_MESSAGES)[number];

type Catalogue = Record<MessageKey, string>;

const en: Catalogue = {
  ok: 'Success',
  trial_granted: 'Free trial claimed',
  rewards_withdrawn: 'Invitation rewards added to your time',
  trial_claimed: 'You have already claimed the free trial',
  trial_closed: 'The free trial is not available right now',
  code_sent: 'If the address can receive it, a verification code is on its way',
  registered: 'Welcome! Your account is ready',
  signed_in: 'Signed in',
  signed_out: 'Signed out',
  password_reset: 'Your password has been reset; please sign in',
  password_changed: 'Password changed',
  email_changed: 'E-mail address changed',
  credentials_invalid: 'Wrong e-mail address or password',
  password_too_common: 'This password is too common; please choose another',
  code_invalid: 'The verification code is wrong or no longer valid',
  code_expired: 'The verification code has expired; please request a new one',
  code_resend_too_soon: 'Please wait {retry_after} seconds before requesting another code',
  email_taken: 'This e-mail address already belongs to an account',
  field_required: 'Please enter {field}',
  field_invalid: '{field} is not valid',
  files_not_accepted: 'File uploads are not accepted',
  body_invalid: 'The request could not be read',
  payload_too_large: 'The request is too large',
  unsupported_media_type: 'This request format is not supported',
  signature_missing: 'The request is not signed',
  signature_invalid: 'The request signature is not valid',
  signature_stale: 'The request has expired; check your device clock and try again',
  not_signed_in: 'Please sign in',
  account_revoked: 'This account has been closed; contact support to restore it',
  not_found: 'Not found',
  too_many_requests: 'Too many requests; please try again in {retry_after} seconds',
  internal_error: 'Something went wrong on our side; please try again later',
};

const zh: Catalogue = {
  ok: '操作成功',
  trial_granted: '已领取免费试用',
  rewards_withdrawn: '邀请奖励已计入使用时长',
  trial_claimed: '你已经领取过免费试用',
  trial_closed: '免费试用暂未开放',
  code_sent: '如果该邮箱可以接收，验证码已发出',
  registered: '欢迎！账户已创建',
  signed_in: '登录成功',
  signed_out: '已退出登录',
  password_reset: '密码已重置，请重新登录',
  password_changed: '密码修改成功',
  email_changed: '邮箱修改成功',
  credentials_invalid: '邮箱或密码错误',
  password_too_common: '该密码过于常见，请换一个',
  code_invalid: '验证码错误或已失效',
  code_expired: '验证码已过期，请重新获取',
  code_resend_too_soon: '请在{retry_after}秒后再获取验证码',
  email_taken: '该邮箱已被其他账户使用',
  field_required: '请输入{field}',
  field_invalid: '{field}格式不正确',
  files_not_accepted: '不接受上传文件',
  body_invalid: '无法读取请求内容',
  payload_too_large: '请求内容过大',
  unsupported_media_type: '不支持此请求格式',
  signature_missing: '请求缺少签名',
  signature_invalid: '请求签名无效',
  signature_stale: '请求已过期，请检查设备时间后重试',
  not_signed_in: '请先登录',
  account_revoked: '该账号已被注销，如需恢复请联系客服',
  not_found: '未找到',
  too_many_requests: '请求过于频繁，请在{retry_after}秒后重试',
  internal_error: '服务器出了点问题，请稍后重试',
};

const tw: Catalogue = {
  ok: '操作成功',
  trial_granted: '已領取免費試用',
  rewards_withdrawn: '邀請獎勵已計入使用時間',
  trial_claimed: '你已經領取過免費試用',
  trial_closed: '免費試用暫未開放',
  code_sent: '如果該電子郵件可以接收，驗證碼已寄出',
  registered: '歡迎！帳號已建立',
  signed_in: '登入成功',
  signed_out: '已登出',
  password_reset: '密碼已重設，請重新登入',
  password_changed: '密碼修改成功',
  email_changed: '電子郵件修改成功',
  credentials_invalid: '電子郵件或密碼錯誤',
  password_too_common: '此密碼過於常見，請換一個',
  code_invalid: '驗證碼錯誤或已失效',
  code_expired: '驗證碼已過期，請重新取得',
  code_resend_too_soon: '請在{retry_after}秒後再取得驗證碼',
  email_taken: '此電子郵件已被其他帳號使用',
  field_required: '請輸入{field}',
  field_invalid: '{field}格式不正確',
  files_not_accepted: '不接受上傳檔案',
  body_invalid: '無法讀取請求內容',
  payload_too_large: '請求內容過大',
  unsupported_media_type: '不支援此請求格式',
  signature_missing: '請求缺少簽章',
  signature_invalid: '請求簽章無效',
  signature_stale: '請求已過期，請檢查裝置時間後重試',
  not_signed_in: '請先登入',
  account_revoked: '此帳號已被註銷，如需恢復請聯絡客服',
  not_found: '找不到',
  too_many_requests: '請求過於頻繁，請在{retry_after}秒後重試',
  internal_error: '伺服器出了點問題，請稍後重試',
};

export const MESSAGES: Record<Language, Catalogue> = { en, zh, tw };

/** Names of request fields as `msg` shows them; a field missing here is shown by its own name. */
export const FIELD_LABELS: Record<Language, Record<string, string>> = {
  en: {
    email: 'e-mail',
    password: 'password',
    email_code: 'verification code',
    invite_code: 'invite code',
    old_pwd: 'old password',
    new_pwd: 'new password',
    scene: 'scene',
    page: 'page',
    size: 'page size',
  },
  zh: {
    email: '邮箱',
    password: '密码',
    email_code: '验证码',
    invite_code: '邀请码',
    old_pwd: '旧密码',
    new_pwd: '新密码',
    scene: '场景',
    page: '页码',
    size: '每页条数',
  },
  tw: {
    email: '電子郵件',
    password: '密碼',
    email_code: '驗證碼',
    invite_code: '邀請碼',
    old_pwd: '舊密碼',
    new_pwd: '新密碼',
    scene: '場景',
    page: '頁碼',
    size: '每頁筆數',
  },
};

export type MessageParams = Record<string, string | number>;

export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const labelled = { ...params };
  if (typeof labelled.field === 'string') {
    labelled.field = FIELD_LABELS[language][labelled.field] ?? labelled.field;
  }
  return MESSAGES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in labelled ? String(labelled[name]) : whole,
  );
}
