// The most common passwords of 8 characters or more in public leak statistics, Chinese sites
// included; shorter ones fail the length rule already. Compared in lower case.
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  `
password 12345678 123456789 1234567890 0123456789 qwertyuiop qwertyui password1 password12 password123
passw0rd p@ssw0rd p@ssword iloveyou iloveyou1 iloveyou2 11111111 00000000 88888888 66666666 12121212
22222222 33333333 44444444 55555555 77777777 99999999 aaaaaaaa abcdefgh abcdefg1 abc12345 abc123456
abcd1234 1234abcd 1234qwer qwer1234 q1w2e3r4 1q2w3e4r 1q2w3e4r5t 1qaz2wsx 1qazxsw2 zaq12wsx qazwsxedc
qweasdzxc 123qweasd 12345qwert qwerty123 qwerty12 qwe123456 123456qwe asd123456 asdasdasd asdf1234
asdfghjkl zxc123456 zxcvbnm1 zxcvbnm123 zxcv1234 a1234567 a12345678 a123456789 aa123456 123456aa
123456abc 123456789a 1234567a 12345679 123123123 987654321 147258369 147852369 159357456 741852963
789456123 123654789 135792468 12344321 11223344 12341234 11112222 5201314520 1314520520 520520520
5201314a woaini1314 woaini520 qq123456 wang1234 zhang123 li123456 sunshine princess football
baseball welcome1 welcome123 admin123 administrator superman michael1 letmein1 trustno1 dragon12
monkey12 shadow12 master12 whatever starwars computer jennifer corvette mercedes charlie1 jordan23
liverpool chelsea1 arsenal1 babygirl1 freedom1 internet samsung1 changeme changeme1 default1
`
    .split(/\s+/)
    .filter(Boolean),
);
