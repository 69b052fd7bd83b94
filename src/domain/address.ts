/**
 * Postal addresses on cards: the one definition of their fields, checks and wire order, and the
 * ISO 3166-1 alpha-2 country codes a `country` may take (the 249 officially assigned codes).
 */
import { z } from 'zod';
import { Text } from './formats.js';

const COUNTRIES = new Set(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
   CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
   GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO
   JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR
   MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO
   RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV
   TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/),
);

export const isCountryCode = (code: string): boolean => COUNTRIES.has(code);

/** The same list as a pattern, for the documents: a generated client still types `country` as a string. */
const COUNTRY_PATTERN = `^(?:${[...COUNTRIES].join('|')})$`;

export const Address = z
  .object(
    {
      firstLine: Text,
      secondLine: Text.optional(),
      city: Text,
      state: Text.optional(),
      country: z
        .string({ error: 'must be a string' })
        .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code such as GB')
        .meta({ pattern: COUNTRY_PATTERN, description: 'ISO 3166-1 alpha-2 country code' }),
      postCode: Text,
    },
    { error: 'must be an address object' },
  )
  .meta({ id: 'Address' });

export type Address = z.infer<typeof Address>;

/** The address with its fields in wire order and absent optional fields omitted. */
export const orderAddress = (address: Address): Address => Address.parse(address);
