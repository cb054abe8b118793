"""The paths a user takes (data -> estimate -> sensitivity -> release -> checks): a frozen
configuration in, a result object out; the pages and scripts call them the same way."""
