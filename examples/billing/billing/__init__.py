"""Billing: orders, payments, invoices and refunds."""
