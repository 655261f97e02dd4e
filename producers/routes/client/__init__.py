"""`tsograph routes --role client`: fetch, axios and ky requests as route-call facts."""
