CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
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
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `accounts_customer` ON `accounts` (`customer_id`);--> statement-breakpoint
CREATE TABLE `attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`at` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `attempts_delivery` ON `attempts` (`delivery_id`);--> statement-breakpoint
CREATE TABLE `authorisations` (
	`id` text PRIMARY KEY NOT NULL,
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
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `authorisations_card` ON `authorisations` (`card_id`);--> statement-breakpoint
CREATE TABLE `cards` (
	`id` text PRIMARY KEY NOT NULL,
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
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cards_account` ON `cards` (`account_id`);--> statement-breakpoint
CREATE TABLE `credentials` (
	`api_key` text PRIMARY KEY NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`external_id` text NOT NULL,
	`chain_id` text NOT NULL,
	`chain_id_key` text NOT NULL,
	`status` text NOT NULL,
	`challenge` text,
	`challenge_expires_at` integer,
	`challenge_signed` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_external_id` ON `customers` (`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `customers_chain_id` ON `customers` (`chain_id_key`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`callback_url` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`first_attempt_at` integer,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deliveries_event` ON `deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `deliveries_status` ON `deliveries` (`status`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`entity_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_entity` ON `events` (`entity_id`);--> statement-breakpoint
CREATE INDEX `events_type` ON `events` (`type`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_due` ON `jobs` (`due_at`);--> statement-breakpoint
CREATE INDEX `jobs_subject` ON `jobs` (`subject_id`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`public_key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` text PRIMARY KEY NOT NULL,
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
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `transactions_account` ON `transactions` (`account_id`);--> statement-breakpoint
CREATE INDEX `transactions_card` ON `transactions` (`card_id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`callback_url` text NOT NULL,
	`types` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
