CREATE TABLE `programmes` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`token_secret` text NOT NULL,
	`token_generation` integer DEFAULT 0 NOT NULL,
	`clock_frozen_at` integer,
	`clock_offset` integer DEFAULT 0 NOT NULL,
	`webhook_key` text NOT NULL,
	`random_seed` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
-- A database from before programmes: its world becomes the default programme's, and what meta kept
-- (the token secret and generation, the clock offset, the webhook key) becomes its row. An empty
-- webhook key (one given with --webhook-key was never kept) makes the sandbox make one.
INSERT INTO `programmes` (`id`, `name`, `token_secret`, `token_generation`, `clock_offset`, `webhook_key`, `created_at`)
SELECT 'default', 'default', secret.`value`,
  COALESCE((SELECT CAST(`value` AS INTEGER) FROM `meta` WHERE `key` = 'token_generation'), 0),
  COALESCE((SELECT CAST(`value` AS INTEGER) FROM `meta` WHERE `key` = 'clock_offset'), 0),
  COALESCE((SELECT `value` FROM `meta` WHERE `key` = 'webhook_private_key'), ''),
  CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM `meta` AS secret WHERE secret.`key` = 'jwt_secret';--> statement-breakpoint
DROP TABLE `meta`;--> statement-breakpoint
CREATE TABLE `__new_accounts` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`customer_id` text NOT NULL,
	`type` text NOT NULL,
	`currencies` text NOT NULL,
	`status` text NOT NULL,
	`chain_id` text,
	`challenge` text,
	`challenge_expires_at` integer,
	`cascade_deactivated` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`programme_id`,`customer_id`) REFERENCES `customers`(`programme_id`,`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_accounts`("programme_id", "id", "customer_id", "type", "currencies", "status", "chain_id", "challenge", "challenge_expires_at", "cascade_deactivated", "created_at", "updated_at") SELECT 'default', "id", "customer_id", "type", "currencies", "status", "chain_id", "challenge", "challenge_expires_at", "cascade_deactivated", "created_at", "updated_at" FROM `accounts`;--> statement-breakpoint
DROP TABLE `accounts`;--> statement-breakpoint
ALTER TABLE `__new_accounts` RENAME TO `accounts`;--> statement-breakpoint
CREATE INDEX `accounts_customer` ON `accounts` (`programme_id`,`customer_id`);--> statement-breakpoint
CREATE TABLE `__new_attempts` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`at` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`programme_id`,`delivery_id`) REFERENCES `deliveries`(`programme_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_attempts`("programme_id", "id", "delivery_id", "attempt", "at", "status_code", "error", "duration_ms") SELECT 'default', "id", "delivery_id", "attempt", "at", "status_code", "error", "duration_ms" FROM `attempts`;--> statement-breakpoint
DROP TABLE `attempts`;--> statement-breakpoint
ALTER TABLE `__new_attempts` RENAME TO `attempts`;--> statement-breakpoint
CREATE INDEX `attempts_delivery` ON `attempts` (`programme_id`,`delivery_id`);--> statement-breakpoint
CREATE TABLE `__new_cards` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`account_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`name` text,
	`network` text,
	`masked_pan` text,
	`expiration_date` text,
	`billing_address` text NOT NULL,
	`shipping_address` text,
	`cascade_deactivated` integer DEFAULT false NOT NULL,
	`terminated_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`programme_id`,`account_id`) REFERENCES `accounts`(`programme_id`,`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_cards`("programme_id", "id", "account_id", "type", "status", "name", "network", "masked_pan", "expiration_date", "billing_address", "shipping_address", "cascade_deactivated", "terminated_at", "created_at", "updated_at") SELECT 'default', "id", "account_id", "type", "status", "name", "network", "masked_pan", "expiration_date", "billing_address", "shipping_address", "cascade_deactivated", "terminated_at", "created_at", "updated_at" FROM `cards`;--> statement-breakpoint
DROP TABLE `cards`;--> statement-breakpoint
ALTER TABLE `__new_cards` RENAME TO `cards`;--> statement-breakpoint
CREATE INDEX `cards_account` ON `cards` (`programme_id`,`account_id`);--> statement-breakpoint
CREATE TABLE `__new_deliveries` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`event_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`callback_url` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`first_attempt_at` integer,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`programme_id`,`event_id`) REFERENCES `events`(`programme_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_deliveries`("programme_id", "id", "event_id", "webhook_id", "callback_url", "status", "attempts", "first_attempt_at", "next_attempt_at", "created_at", "updated_at") SELECT 'default', "id", "event_id", "webhook_id", "callback_url", "status", "attempts", "first_attempt_at", "next_attempt_at", "created_at", "updated_at" FROM `deliveries`;--> statement-breakpoint
DROP TABLE `deliveries`;--> statement-breakpoint
ALTER TABLE `__new_deliveries` RENAME TO `deliveries`;--> statement-breakpoint
CREATE INDEX `deliveries_event` ON `deliveries` (`programme_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `deliveries_due` ON `deliveries` (`programme_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `__new_authorisations` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`account_id` text NOT NULL,
	`card_id` text NOT NULL,
	`status` text NOT NULL,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`merchant_amount` text NOT NULL,
	`merchant_currency` text NOT NULL,
	`exchange_rate` text NOT NULL,
	`merchant` text NOT NULL,
	`capture` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_authorisations`("programme_id", "id", "account_id", "card_id", "status", "amount", "currency", "merchant_amount", "merchant_currency", "exchange_rate", "merchant", "capture", "created_at", "updated_at") SELECT 'default', "id", "account_id", "card_id", "status", "amount", "currency", "merchant_amount", "merchant_currency", "exchange_rate", "merchant", "capture", "created_at", "updated_at" FROM `authorisations`;--> statement-breakpoint
DROP TABLE `authorisations`;--> statement-breakpoint
ALTER TABLE `__new_authorisations` RENAME TO `authorisations`;--> statement-breakpoint
CREATE INDEX `authorisations_card` ON `authorisations` (`programme_id`,`card_id`);--> statement-breakpoint
CREATE TABLE `__new_customers` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`external_id` text NOT NULL,
	`chain_id` text NOT NULL,
	`chain_id_key` text NOT NULL,
	`status` text NOT NULL,
	`challenge` text,
	`challenge_expires_at` integer,
	`challenge_signed` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_customers`("programme_id", "id", "external_id", "chain_id", "chain_id_key", "status", "challenge", "challenge_expires_at", "challenge_signed", "created_at", "updated_at") SELECT 'default', "id", "external_id", "chain_id", "chain_id_key", "status", "challenge", "challenge_expires_at", "challenge_signed", "created_at", "updated_at" FROM `customers`;--> statement-breakpoint
DROP TABLE `customers`;--> statement-breakpoint
ALTER TABLE `__new_customers` RENAME TO `customers`;--> statement-breakpoint
CREATE UNIQUE INDEX `customers_external_id` ON `customers` (`programme_id`,`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `customers_chain_id` ON `customers` (`programme_id`,`chain_id_key`);--> statement-breakpoint
CREATE TABLE `__new_events` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`entity_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_events`("programme_id", "id", "seq", "type", "entity_id", "body", "created_at") SELECT 'default', "id", ROW_NUMBER() OVER (ORDER BY rowid), "type", "entity_id", "body", "created_at" FROM `events`;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
ALTER TABLE `__new_events` RENAME TO `events`;--> statement-breakpoint
CREATE UNIQUE INDEX `events_seq` ON `events` (`programme_id`,`seq`);--> statement-breakpoint
CREATE INDEX `events_entity` ON `events` (`programme_id`,`entity_id`);--> statement-breakpoint
CREATE INDEX `events_type` ON `events` (`programme_id`,`type`);--> statement-breakpoint
CREATE TABLE `__new_jobs` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_jobs`("programme_id", "id", "kind", "subject_id", "due_at", "created_at") SELECT 'default', "id", "kind", "subject_id", "due_at", "created_at" FROM `jobs`;--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `__new_jobs` RENAME TO `jobs`;--> statement-breakpoint
CREATE INDEX `jobs_due` ON `jobs` (`programme_id`,`due_at`);--> statement-breakpoint
CREATE INDEX `jobs_subject` ON `jobs` (`programme_id`,`subject_id`);--> statement-breakpoint
CREATE TABLE `__new_transactions` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`account_id` text NOT NULL,
	`card_id` text,
	`authorisation_id` text,
	`status` text NOT NULL,
	`direction` text NOT NULL,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`merchant_amount` text NOT NULL,
	`merchant_currency` text NOT NULL,
	`exchange_rate` text NOT NULL,
	`merchant` text NOT NULL,
	`token_amount` text NOT NULL,
	`token` text NOT NULL,
	`fees` text NOT NULL,
	`chain_transactions` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_transactions`("programme_id", "id", "account_id", "card_id", "authorisation_id", "status", "direction", "amount", "currency", "merchant_amount", "merchant_currency", "exchange_rate", "merchant", "token_amount", "token", "fees", "chain_transactions", "created_at", "updated_at") SELECT 'default', "id", "account_id", "card_id", "authorisation_id", "status", "direction", "amount", "currency", "merchant_amount", "merchant_currency", "exchange_rate", "merchant", "token_amount", "token", "fees", "chain_transactions", "created_at", "updated_at" FROM `transactions`;--> statement-breakpoint
DROP TABLE `transactions`;--> statement-breakpoint
ALTER TABLE `__new_transactions` RENAME TO `transactions`;--> statement-breakpoint
CREATE INDEX `transactions_account` ON `transactions` (`programme_id`,`account_id`);--> statement-breakpoint
CREATE INDEX `transactions_card` ON `transactions` (`programme_id`,`card_id`);--> statement-breakpoint
CREATE TABLE `__new_idempotency_keys` (
	`programme_id` text NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `scope`, `key`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_idempotency_keys`("programme_id", "scope", "key", "fingerprint", "state", "status", "headers", "body", "created_at", "expires_at") SELECT 'default', "scope", "key", "fingerprint", "state", "status", "headers", "body", "created_at", "expires_at" FROM `idempotency_keys`;--> statement-breakpoint
DROP TABLE `idempotency_keys`;--> statement-breakpoint
ALTER TABLE `__new_idempotency_keys` RENAME TO `idempotency_keys`;--> statement-breakpoint
CREATE TABLE `__new_signing_keys` (
	`programme_id` text NOT NULL,
	`key_id` text NOT NULL,
	`public_key` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `key_id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_signing_keys`("programme_id", "key_id", "public_key", "created_at") SELECT 'default', "key_id", "public_key", "created_at" FROM `signing_keys`;--> statement-breakpoint
DROP TABLE `signing_keys`;--> statement-breakpoint
ALTER TABLE `__new_signing_keys` RENAME TO `signing_keys`;--> statement-breakpoint
CREATE TABLE `__new_webhooks` (
	`programme_id` text NOT NULL,
	`id` text NOT NULL,
	`callback_url` text NOT NULL,
	`types` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`programme_id`, `id`),
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_webhooks`("programme_id", "id", "callback_url", "types", "created_at", "updated_at") SELECT 'default', "id", "callback_url", "types", "created_at", "updated_at" FROM `webhooks`;--> statement-breakpoint
DROP TABLE `webhooks`;--> statement-breakpoint
ALTER TABLE `__new_webhooks` RENAME TO `webhooks`;--> statement-breakpoint
CREATE TABLE `__new_credentials` (
	`api_key` text PRIMARY KEY NOT NULL,
	`programme_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_credentials`("api_key", "programme_id", "secret_hash", "created_at") SELECT "api_key", 'default', "secret_hash", "created_at" FROM `credentials`;--> statement-breakpoint
DROP TABLE `credentials`;--> statement-breakpoint
ALTER TABLE `__new_credentials` RENAME TO `credentials`;--> statement-breakpoint
CREATE INDEX `credentials_programme` ON `credentials` (`programme_id`);